"""The apps' use cases (docs/INTEGRATION.md), wired to their ports: keys, external IDs,
batches, user tokens, and the one bearer resolver every /v1 route uses."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from feedloom.bootstrap.runtime import Runtime
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.webhook_subscriptions import SubscribedTypes
from feedloom.ports import CachePorts, DurableStores
from feedloom.ports.outbound import OutboundHttp
from feedloom.settings import Settings
from feedloom.write.app_follows import AppFollowWrites
from feedloom.write.app_links import AppLinks
from feedloom.write.app_tokens import AppTokens, TokenRules
from feedloom.write.app_users import AppUserWrites
from feedloom.write.apps import AppAdmin, AppKeys
from feedloom.write.credentials import ApiKeysAreNoUser, Credentials
from feedloom.write.erase_account import EraseAccount
from feedloom.write.jwks import RemoteKeySets
from feedloom.write.sessions import Authenticator
from feedloom.write.throttle import Throttle
from feedloom.write.webhooks import (
    RetryPolicy,
    SendLimits,
    WebhookEvents,
    Webhooks,
    WebhookSender,
)
from feedloom.write.worker import Worker


@dataclass(slots=True)
class AppServices:
    admin: AppAdmin
    keys: AppKeys
    links: AppLinks
    users: AppUserWrites
    follows: AppFollowWrites
    tokens: AppTokens
    webhook_events: WebhookEvents
    subscriptions: SubscribedTypes
    # Set by add_webhooks, once the webhooks' outbound client is open.
    webhooks: Webhooks | None = None
    webhook_sender: WebhookSender | None = None


def build_apps(
    settings: Settings,
    stores: DurableStores,
    caches: CachePorts,
    runtime: Runtime,
    views: Views,
    states: ReaderStates,
    erase: EraseAccount,
    auth: Authenticator,
    throttle: Throttle,
) -> AppServices:
    clock, ids = runtime.clock, runtime.ids
    links = AppLinks(stores.app_users, caches.tokens)
    users = AppUserWrites(stores.app_users, links, views, erase, ids, clock)
    config = settings.apps
    rules = TokenRules(
        audience=config.token_audience,
        leeway_s=config.token_leeway_s,
        max_lifetime_s=config.token_max_lifetime_s,
        verified_memory=config.verified_tokens,
    )
    subscriptions = SubscribedTypes(stores.webhooks, caches.tokens)
    return AppServices(
        admin=AppAdmin(stores.apps, caches.tokens, ids, clock),
        keys=AppKeys(stores.apps, caches.tokens, throttle, clock),
        links=links,
        users=users,
        follows=AppFollowWrites(
            stores.app_users,
            stores.fanout_modes,
            views,
            states,
            caches.timelines,
            settings.fanout.policy(),
            clock,
        ),
        tokens=AppTokens(stores.apps, links, users, caches.tokens, auth, clock, rules),
        webhook_events=WebhookEvents(stores.webhooks, subscriptions, views, ids, clock),
        subscriptions=subscriptions,
    )


def credentials(apps: AppServices, auth: Authenticator) -> Credentials:
    """Every kind of bearer a /v1 route accepts; a session token is the default."""
    return Credentials([ApiKeysAreNoUser(), apps.tokens], default=auth)


def add_webhooks(
    settings: Settings,
    stores: DurableStores,
    runtime: Runtime,
    apps: AppServices,
    worker: Worker,
    outbound: OutboundHttp,
) -> None:
    """Subscriptions for the app endpoints; events and sends for the worker; the
    apps' JWKS URLs."""
    config, clock, ids = settings.webhooks, runtime.clock, runtime.ids
    policy = RetryPolicy(
        base=timedelta(seconds=config.retry_base_s),
        cap=timedelta(seconds=config.retry_max_s),
        give_up_after=timedelta(seconds=config.give_up_after_s),
        lease=timedelta(seconds=config.timeout_s + 30),
    )
    sender = WebhookSender(
        stores.webhooks,
        outbound,
        clock,
        policy,
        SendLimits(config.concurrency, config.per_receiver, config.timeout_s),
    )
    apps.webhooks = Webhooks(stores.webhooks, apps.subscriptions, outbound, ids, clock)
    apps.webhook_sender = sender
    # The apps' JWKS URLs are read with the same SSRF-checked client.
    apps.tokens.remote_keys = RemoteKeySets(outbound, clock)
    worker.webhooks = apps.webhook_events
    worker.webhook_sender = sender
