from typing import Literal

AppUserOutResult = Literal["created", "unchanged", "updated"]

APP_USER_OUT_RESULT_VALUES: set[AppUserOutResult] = {
    "created",
    "unchanged",
    "updated",
}


def check_app_user_out_result(value: str) -> AppUserOutResult:
    if value in APP_USER_OUT_RESULT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {APP_USER_OUT_RESULT_VALUES!r}")
