"""``anthropic-vertex``: Claude on Google Cloud Vertex AI, the Messages mapping behind another URL.

The body is the ``anthropic`` provider's (:func:`._request.build_body`, one mapping for generate
and stream) with two changes Vertex prescribes: no ``model`` (the model is in the URL) and
``anthropic_version: "vertex-2023-10-16"`` in the body instead of the ``anthropic-version`` header.
Answers, streams and errors decode exactly as on the Anthropic API. Requests go to::

    POST https://{host}/v1/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:rawPredict
    POST ...:streamRawPredict                                   (a stream)

with ``authorization: Bearer <token>`` from the kit's Google Cloud credentials
(:mod:`modelport.http.google_cloud`: ``token=``, ``token_provider=``, or application default
credentials through the ``modelport-anthropic[vertex]`` extra), sent to Vertex AI's origins only.
The project is ``project=``, else ``GOOGLE_CLOUD_PROJECT`` or ``ANTHROPIC_VERTEX_PROJECT_ID``, else
the application default credentials' project; the location is ``location=``, else
``GOOGLE_CLOUD_LOCATION`` or ``CLOUD_ML_REGION`` (no default: Claude is served in few regions).
Either missing is a typed error before any I/O.

What Claude on Vertex AI does not offer through this provider is refused before any I/O: the
server tools (web search, web fetch, code execution), Files API ids, Message Batches (Vertex runs
batch prediction jobs instead), the Models API and token counting (not recorded here).
``response_format`` goes as a forced answer tool unless ``structured_output="native"`` is asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from modelport.errors import ConfigurationError, InvalidRequestError
from modelport.http import HttpRequest, check_header_value
from modelport.http.google_cloud import GoogleCloudCredentials, vertex_host
from modelport.http.urls import check_base_url, resource_name_problem
from modelport.provider import ProviderConfig

from ._cloud import CloudClaudeProvider, answer_as_tool, refuse_file_ids, refuse_server_tools
from .provider import _beta_names

if TYPE_CHECKING:
    import httpx

    from modelport.types import Request

__all__ = [
    "VERTEX_ANTHROPIC_VERSION",
    "VERTEX_LOCATION_ENV",
    "VERTEX_PROJECT_ENV",
    "VertexAnthropicProvider",
    "vertex_model_url",
]

#: The ``anthropic_version`` every Vertex AI body carries.
VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16"
#: Where the project is looked up when ``project=`` is not given, in order.
VERTEX_PROJECT_ENV = ("GOOGLE_CLOUD_PROJECT", "ANTHROPIC_VERTEX_PROJECT_ID")
#: Where the location (region) is looked up when ``location=`` is not given, in order.
VERTEX_LOCATION_ENV = ("GOOGLE_CLOUD_LOCATION", "CLOUD_ML_REGION")
_HINT = (
    "Pass project= and token=... or token_provider=..., or install modelport-anthropic[vertex] "
    "(google-auth) for application default credentials."
)


def vertex_model_url(base_url: str, project: str, location: str, model: str, *, stream: bool) -> str:
    """``{base}/projects/{p}/locations/{l}/publishers/anthropic/models/{model}:rawPredict`` (or
    ``:streamRawPredict``); each segment is checked to stay in its place in the path."""
    for what, value in (("project", project), ("location", location), ("model name", model)):
        problem = resource_name_problem(value, what=f"the {what}")
        if problem is None and ("/" in value or ":" in value):
            problem = f"the {what} cannot contain '/' or ':'"
        if problem is not None:
            raise InvalidRequestError(problem)
    method = "streamRawPredict" if stream else "rawPredict"
    return f"{base_url}/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:{method}"


class VertexAnthropicProvider(CloudClaudeProvider):
    """Claude on Vertex AI (``{location}-aiplatform.googleapis.com``, ``:rawPredict``)."""

    id: ClassVar[str] = "anthropic-vertex"
    display_name: ClassVar[str] = "Anthropic on Vertex AI"
    telemetry_name: ClassVar[str | None] = "gcp.vertex_ai"
    api_key_env: ClassVar[tuple[str, ...]] = ()
    credential_headers: ClassVar[frozenset[str]] = frozenset({"authorization"})
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "Google OAuth access token": r"ya29\.[0-9A-Za-z_\-.]{16,}",
    }
    config_options: ClassVar[frozenset[str] | None] = frozenset(
        {"project", "location", "token", "token_provider", "credential", "beta", "name"}
    )
    saved_options: ClassVar[frozenset[str]] = frozenset({"project", "location", "beta", "name"})
    #: Besides the base URL's host: the other Vertex AI hosts (global, regional, multi-regional).
    credential_origins: ClassVar[tuple[str, ...]] = (
        "https://*-aiplatform.googleapis.com",
        "https://aiplatform.googleapis.com",
        "https://aiplatform.*.rep.googleapis.com",
    )

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self.cloud = GoogleCloudCredentials(
            config.options,
            config.provider_id,
            hint=_HINT,
            project_env=VERTEX_PROJECT_ENV,
            location_env=VERTEX_LOCATION_ENV,
        )

    # Where and who -----------------------------------------------------------------------------

    def location(self) -> str:
        """``location=``, else ``GOOGLE_CLOUD_LOCATION`` or ``CLOUD_ML_REGION``; none is an error."""
        location = self.cloud.explicit_location()
        if location is None:
            raise ConfigurationError(
                f"provider {self.id!r} needs a Vertex AI location: pass location='us-east5' (or "
                "'global', 'europe-west1', ...) or set GOOGLE_CLOUD_LOCATION or CLOUD_ML_REGION"
            )
        return location

    def base_url(self) -> str:
        """``base_url=``, else ``https://{vertex_host(location)}/v1``."""
        if self.config.base_url:
            return check_base_url(self.config.base_url)
        return f"https://{vertex_host(self.location())}/v1"

    def auth(self) -> httpx.Auth:
        return self.cloud.auth()

    def secrets(self) -> list[str]:
        return self.cloud.secrets()

    def headers(self) -> Mapping[str, str]:
        """Only ``anthropic-beta`` (``beta=``): the version goes in the body on Vertex AI."""
        names = _beta_names(self.config.options.get("beta"))
        return {"anthropic-beta": check_header_value(",".join(names), "beta")} if names else {}

    def saved_connection(self) -> dict[str, Any]:
        kept = super().saved_connection()
        project = self.cloud.project()
        kept.update({"location": self.location(), **({"project": project} if project else {})})
        return kept

    # Mapping ----------------------------------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """``:rawPredict`` / ``:streamRawPredict`` with the Messages body, less ``model``, plus
        ``anthropic_version``."""
        from ._request import build_body

        refuse_server_tools(request, self.id)
        location = self.location()
        project = self.cloud.require_project()
        url = vertex_model_url(self.base_url(), project, location, model_name, stream=stream)
        body, warnings, answer = build_body(model_name, answer_as_tool(request), stream=stream)
        refuse_file_ids(body, self.id)
        body.pop("model", None)
        body["anthropic_version"] = VERTEX_ANTHROPIC_VERSION
        return HttpRequest(url, body=body, stream=stream, warnings=warnings, context=answer)
