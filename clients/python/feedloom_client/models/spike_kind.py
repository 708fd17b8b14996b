from typing import Literal

SpikeKind = Literal["followers", "likes"]

SPIKE_KIND_VALUES: set[SpikeKind] = {
    "followers",
    "likes",
}


def check_spike_kind(value: str) -> SpikeKind:
    if value in SPIKE_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SPIKE_KIND_VALUES!r}")
