"""``modelport models``: the models a provider serves, from its own model list endpoint (cached
briefly); ``modelport aliases`` and ``modelport default-model``: names for the models you use."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import click

from ._connect import connect_options, error_text, open_model
from ._home import Settings, ensure_home, home, read_json, write_private
from .terminal import json_text, safe

__all__ = ["aliases_group", "default_model_command", "models_command"]

#: How long a provider's model list is reused, in seconds.
CACHE_SECONDS = 600
#: The model name given to the provider to list its models (no call uses it).
_LISTING = "model-list"


def _cache_path(provider_id: str, base_url: str | None) -> Path:
    # The provider and the server only (never the key) name the cached list.
    digest = hashlib.sha256(f"{provider_id}\n{base_url or ''}".encode()).hexdigest()[:20]
    return home() / "cache" / f"models-{digest}.json"


def list_models(
    provider_id: str, *, base_url: str | None, key: str | None, refresh: bool
) -> list[dict[str, Any]]:
    """The provider's models as JSON objects, from the cache when it is fresh."""
    from dataclasses import asdict

    path = _cache_path(provider_id, base_url)
    if not refresh:
        cached = _cached(path)
        if cached is not None:
            return cached
    model = open_model(f"{provider_id}/{_LISTING}", base_url=base_url, key=key)
    try:
        models = [asdict(info) for info in model.provider.list_models()]
    finally:
        model.close()
    ensure_home()
    write_private(path, json.dumps({"fetched": time.time(), "models": models}))
    return models


def _cached(path: Path) -> list[dict[str, Any]] | None:
    """The model list cached in ``path`` while it is fresh: fetched less than :data:`CACHE_SECONDS`
    ago, and not in the future (a clock set back, or a stamp written by hand, would keep it fresh
    forever); ``None`` when there is none or it is stale. A cache that is not what this command
    writes is a :class:`ConfigurationError` of one line (``--refresh`` replaces it)."""
    from modelport.errors import ConfigurationError

    try:
        cached = read_json(path)
    except ConfigurationError as error:
        raise ConfigurationError(
            f"the model list cache is damaged: {error} (--refresh replaces it)"
        ) from None
    if not cached:
        return None
    fetched, models = cached.get("fetched"), cached.get("models")
    if not (
        isinstance(fetched, (int, float))
        and not isinstance(fetched, bool)
        and isinstance(models, list)
        and all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in models)
    ):
        raise ConfigurationError(
            f"the model list cache is damaged: {path} does not hold a stamped list of models "
            "(--refresh replaces it)"
        )
    age = time.time() - float(fetched)
    return list(models) if 0 <= age < CACHE_SECONDS else None


@click.command("models")
@click.argument("provider", required=False)
@connect_options
@click.option("--json", "as_json", is_flag=True, help="Print the models as JSON.")
@click.option("--refresh", is_flag=True, help=f"Ask the provider again (a list is kept {CACHE_SECONDS} s).")
def models_command(
    provider: str | None, base_url: str | None, key: str | None, as_json: bool, refresh: bool
) -> None:
    """The models PROVIDER serves, from its own model list (e.g. `modelport models google`);
    without PROVIDER, the providers that can list theirs."""
    import modelport
    from modelport import plugins

    if provider is None:
        listing = sorted(pid for pid, cls in plugins.providers().items() if cls.capabilities.list_models)
        if as_json:
            click.echo(json_text({"providers": listing}))
            return
        click.echo("Providers that list their models (modelport models PROVIDER):")
        for provider_id in listing:
            click.echo(safe(f"  {provider_id}"))
        return
    try:
        provider_id = plugins.provider_class(provider).id
        models = list_models(provider_id, base_url=base_url, key=key, refresh=refresh)
    except modelport.ModelportError as error:
        click.echo(f"error: {error_text(error)}", err=True)
        raise SystemExit(1) from None
    if as_json:
        click.echo(json_text(models))
        return
    for info in models:
        details = [info.get("display_name")]
        if info.get("input_token_limit"):
            details.append(f"input {info['input_token_limit']} tokens")
        shown = ", ".join(str(d) for d in details if d)
        click.echo(safe(f"{provider_id}/{info['id']}" + (f"  ({shown})" if shown else "")))


def _checked_url(url: str | None) -> str | None:
    """``--base-url`` as it will be kept: checked now (one line of error, exit 2), not at the call."""
    if not url:
        return None
    import modelport
    from modelport.http.urls import check_base_url

    try:
        return check_base_url(url, source="--base-url")
    except modelport.ModelportError as error:
        raise click.BadParameter(str(error), param_hint="'--base-url'") from None


def _shown(model: str, url: str | None) -> str:
    """``model``, with the server it is kept with; a user and password in the URL are masked."""
    if not url:
        return model
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if "@" in parts.netloc:
        parts = parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2])
    return f"{model} at {parts.geturl()}"


_BASE_URL_HELP = "The server the model lives on (e.g. a local openai-compatible server); --base-url wins."


@click.command("default-model")
@click.argument("model", required=False)
@click.option("--base-url", metavar="URL", help=_BASE_URL_HELP)
@click.option("--clear", is_flag=True, help="Forget the default model.")
def default_model_command(model: str | None, base_url: str | None, clear: bool) -> None:
    """Show or set the model `generate` and `chat` use when none is given (MODELPORT_MODEL wins)."""
    settings = Settings.load()
    if clear or model:
        settings.default_model = None if clear else model
        settings.default_base_url = None if clear else _checked_url(base_url)
        settings.save()
        return
    if base_url:
        raise click.UsageError("--base-url goes with a MODEL: modelport default-model MODEL --base-url URL")
    if settings.default_model is None:
        click.echo("No default model (set one: modelport default-model provider/model).", err=True)
        raise SystemExit(1)
    click.echo(safe(_shown(settings.default_model, settings.default_base_url)))


@click.group("aliases", invoke_without_command=True)
@click.pass_context
def aliases_group(ctx: click.Context) -> None:
    """Short names for models (`modelport aliases set flash google/gemini-2.5-flash`); lists them."""
    if ctx.invoked_subcommand is None:
        settings = Settings.load()
        for name, target in sorted(settings.aliases.items()):
            click.echo(safe(f"{name}: {_shown(target, settings.alias_base_urls.get(name))}"))


@aliases_group.command("set")
@click.argument("name")
@click.argument("model")
@click.option("--base-url", metavar="URL", help=_BASE_URL_HELP)
def aliases_set(name: str, model: str, base_url: str | None) -> None:
    """Make NAME stand for MODEL (provider/model), on the server at --base-url when given."""
    import modelport
    from modelport import plugins

    try:
        plugins.split_model_id(model)  # a model id, checked before it is kept
    except modelport.ModelportError as error:
        raise click.BadParameter(str(error), param_hint="'MODEL'") from None
    url = _checked_url(base_url)
    settings = Settings.load()
    settings.aliases[name] = model
    if url:
        settings.alias_base_urls[name] = url
    else:
        settings.alias_base_urls.pop(name, None)
    settings.save()


@aliases_group.command("remove")
@click.argument("name")
def aliases_remove(name: str) -> None:
    """Forget the alias NAME."""
    settings = Settings.load()
    if settings.aliases.pop(name, None) is None:
        click.echo(f"error: no alias {name!r}", err=True)
        raise SystemExit(1)
    settings.alias_base_urls.pop(name, None)
    settings.save()
