"""The hook through which a plugin registers its recorded conformance cases.

It lives on the core's plugin manager (:func:`modelport.plugins.add_hookspecs`): a plugin implements
it with the core's ``@modelport.hookimpl`` marker, in the same plugin module as its providers::

    from modelport import hookimpl

    @hookimpl
    def modelport_conformance_suites(register):
        register("acme", files("modelport_acme") / "cassettes")

A plugin does not need modelport-conformance installed to load: the hook is only called when the
suite asks for cases (``modelport conformance``, ``generate --cassette``, the pytest base class).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import pluggy

__all__ = ["SuiteRegistrar", "hookspec"]

#: Marks this package's hook specifications; they join the core's on the ``modelport`` plugin manager.
hookspec = pluggy.HookspecMarker("modelport")


class SuiteRegistrar(Protocol):
    """The ``register`` callback passed to :func:`modelport_conformance_suites`.

    Each call becomes one :class:`modelport_conformance.ConformanceSuite` record (the same keywords):

    - ``cases``: a directory (a :class:`pathlib.Path` or an ``importlib.resources`` traversable)
      holding one sub-directory per case;
    - ``unsupported``: feature → the reason it is not supported (those cases are skipped with the
      reason; a case needing a capability the provider's ``Capabilities`` declare ``False`` is
      refused instead, see :mod:`modelport_conformance.capabilities`);
    - ``merge_frames`` (optional): folds a stream's decoded frames into the one body a non-streaming
      call would have returned; the ``merged`` check then compares the stream with their decode
      instead of with ``expected.json`` (see :mod:`modelport_conformance.whole_answer`);
    - ``options``: extra keywords for ``get_model`` during replay and recording (e.g. a project id);
      a case's own ``config`` wins over them;
    - ``credential_env``: the environment variables record mode reads the key from;
    - ``secret_patterns``: kind → regular expression (a string; inline flags such as ``(?i)``) of
      credentials of this provider that the built-in scan does not know, e.g.
      ``{"Example key": r"exk_[0-9a-f]{32}"}``. Every cassette scan of this suite (replay, record,
      ``modelport generate --cassette``) reports them like the built-in shapes, and the recorder
      replaces them before anything is written. A pattern that does not compile fails registration;
    - ``expected_failures``: ``"case/check"`` → the defect that makes that check fail, for a derived
      fault case that found a defect not fixed yet (see :mod:`modelport_conformance.expected_failures`);
    - ``volatile``: regular expressions searched in ``"<case>:<JSON path>"`` of request fields the
      real client sends that no decoded answer carries, left out by the ``history`` check (see
      :mod:`modelport_conformance.derived_history`).
    - ``mutation_exclude``: ``fnmatch`` patterns (paths relative to the provider's package directory)
      of the modules ``modelport conformance --mutate`` leaves alone: those that map no request or
      response of this provider (see :mod:`modelport_conformance.mutation`).
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
        expected_failures: Mapping[str, str] = ...,
        volatile: tuple[str, ...] = (),
        mutation_exclude: tuple[str, ...] = (),
    ) -> None: ...


@hookspec
def modelport_conformance_suites(register: SuiteRegistrar) -> None:
    """Register recorded conformance cases: ``register("my", files("my_pkg") / "cassettes")``."""
