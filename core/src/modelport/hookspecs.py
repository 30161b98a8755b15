"""The hooks a modelport plugin can implement: this module is the table of contents of a plugin.

A plugin is any object or module with functions marked ``@hookimpl``; it is found through the
entry-point group ``modelport`` (entry-point name = provider id) or registered with
:func:`modelport.register_plugin`. The providers hook is *historic*: a plugin loaded late is still
called with the same ``register`` callback. The tools and conformance hooks are collected on demand
(the first time tools are validated or suites are listed), once per plugin, so resolving a model
never pays for importing tool or cassette code. No hook of a plugin is ever run twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    from .provider import Provider
    from .provider_tools import ProviderToolSpec

__all__ = ["hookimpl", "hookspec", "ProviderRegistrar", "SuiteRegistrar", "ToolRegistrar"]

hookspec = pluggy.HookspecMarker("modelport")
hookimpl = pluggy.HookimplMarker("modelport")


class ProviderRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_register_providers`."""

    def __call__(self, provider: type[Provider], *, aliases: tuple[str, ...] = ()) -> None: ...


class ToolRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_register_provider_tools`."""

    def __call__(self, spec: ProviderToolSpec) -> None: ...


class SuiteRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_conformance_suites`.

    Each call becomes one :class:`modelport.plugins.ConformanceSuite` record (the same keywords):

    - ``cases``: a directory (a :class:`pathlib.Path` or an ``importlib.resources`` traversable)
      holding one sub-directory per case;
    - ``unsupported``: feature → the reason it is not supported (those cases are skipped with the
      reason; the provider's ``Capabilities`` skip cases of features it declares ``False`` too);
    - ``merge_frames``: folds a stream's decoded frames into the one body a non-streaming call would
      have returned (enables the stream-equals-merged-decode check);
    - ``options``: extra keywords for ``get_model`` during replay and recording (e.g. a project id);
      a case's own ``config`` wins over them;
    - ``credential_env``: the environment variables record mode reads the key from;
    - ``secret_patterns``: kind → regular expression (a string; inline flags such as ``(?i)``) of
      credentials of this provider that the built-in scan does not know, e.g.
      ``{"Example key": r"exk_[0-9a-f]{32}"}``. Every cassette scan of this suite (replay, record,
      ``modelport generate --cassette``) reports them like the built-in shapes, and the recorder
      replaces them before anything is written. A pattern that does not compile fails registration.
    """

    def __call__(
        self,
        provider_id: str,
        cases: Any,
        *,
        unsupported: Mapping[str, str] = ...,
        merge_frames: Callable[[list[Any]], Any] | None = None,
        options: Mapping[str, Any] = ...,
        credential_env: tuple[str, ...] = (),
        secret_patterns: Mapping[str, str] = ...,
    ) -> None: ...


@hookspec(historic=True)
def modelport_register_providers(register: ProviderRegistrar) -> None:
    """Register provider classes: ``register(MyProvider, aliases=("my",))``."""


@hookspec
def modelport_register_provider_tools(register: ToolRegistrar) -> None:
    """Register provider-executed tool specs: ``register(ProviderToolSpec(...))``."""


@hookspec
def modelport_conformance_suites(register: SuiteRegistrar) -> None:
    """Register recorded conformance cases: ``register("my", files("my_pkg") / "cassettes")``."""
