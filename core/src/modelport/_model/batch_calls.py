"""The batch face of :class:`~modelport.Model` (``submit_batch``, ``submit_embed_batch``,
``get_batch`` and their async twins). Light on import: :mod:`modelport.batches` (pydantic) loads on
the first batch call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ..batches import BatchEntry, BatchJob, EmbedEntry
    from ..batches.records import BatchModel

__all__ = ["BatchCalls"]


class BatchCalls:
    """What :class:`~modelport.Model` does with a provider's batch service (capability ``batch``)."""

    def submit_batch(self, requests: Sequence[BatchEntry]) -> BatchJob:
        """Run ``requests`` on the provider's batch service: each a dict of :meth:`generate` keywords
        or a ``(custom_id, dict)`` pair, all validated and built before anything is sent (a provider
        without one raises ``InvalidRequestError``). See :mod:`modelport.batches`."""
        from .. import batches

        model = cast("BatchModel", self)

        provider, job, built = batches._prepared(model, requests, "generate")
        return batches._submitted(
            job, batches._ran(provider, lambda: provider.batch_submit(model.name, built))
        )

    def submit_embed_batch(self, requests: Sequence[EmbedEntry]) -> BatchJob:
        """Embeddings on the provider's batch service: each entry a string, or a dict of
        :meth:`embed` keywords (``values``, ``output_dimensionality``, ...), or a ``(custom_id, entry)``
        pair; each result an :class:`~modelport.types.EmbeddingResult`."""
        from .. import batches

        model = cast("BatchModel", self)

        provider, job, built = batches._prepared(model, requests, "embed")
        return batches._submitted(
            job, batches._ran(provider, lambda: provider.batch_submit(model.name, built))
        )

    def get_batch(self, batch_id: str) -> BatchJob:
        """A batch of this model's provider, by id. Its requests are not known here, so its results
        decode as plain answers: prefer :func:`modelport.restore_batch` of the saved job."""
        from .. import batches

        model = cast("BatchModel", self)

        provider = batches._provider_of(model)
        return batches._fetched(model, batches._ran(provider, lambda: provider.batch_get(batch_id)))

    async def asubmit_batch(self, requests: Sequence[BatchEntry]) -> BatchJob:
        """Async twin of :meth:`submit_batch`."""
        from .. import batches

        model = cast("BatchModel", self)

        provider, job, built = batches._prepared(model, requests, "generate")
        return batches._submitted(
            job, await batches._aran(provider, lambda: provider.batch_submit(model.name, built))
        )

    async def asubmit_embed_batch(self, requests: Sequence[EmbedEntry]) -> BatchJob:
        """Async twin of :meth:`submit_embed_batch`."""
        from .. import batches

        model = cast("BatchModel", self)

        provider, job, built = batches._prepared(model, requests, "embed")
        return batches._submitted(
            job, await batches._aran(provider, lambda: provider.batch_submit(model.name, built))
        )

    async def aget_batch(self, batch_id: str) -> BatchJob:
        """Async twin of :meth:`get_batch`."""
        from .. import batches

        model = cast("BatchModel", self)

        provider = batches._provider_of(model)
        return batches._fetched(model, await batches._aran(provider, lambda: provider.batch_get(batch_id)))
