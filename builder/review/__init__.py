"""Review stage: annotator and inspector rounds on a real Label Studio server.

Library API (the CLI ``discobench review`` is a thin layer over it)::

    from builder.review import connect, push, pull, status, ReviewStore
    client = connect(url, token)
    with ReviewStore(workspace.review_dir) as store:
        push(client, samples, round="annotate", store=store, checker=checker)
        pull(client, store=store, checker=checker)
        status(store, samples)
"""

from builder.review.agreement import cohen_kappa, krippendorff_alpha, pairwise_kappas
from builder.review.client import connect, resolve
from builder.review.pull import agreement_report, apply_review, pull, status
from builder.review.push import push
from builder.review.state import AuditLog, ReviewStore
from builder.review.tasks import Checker, content_hash, decision_from_result, result_for

__all__ = [
    "AuditLog",
    "Checker",
    "ReviewStore",
    "agreement_report",
    "apply_review",
    "cohen_kappa",
    "connect",
    "content_hash",
    "decision_from_result",
    "krippendorff_alpha",
    "pairwise_kappas",
    "pull",
    "push",
    "resolve",
    "result_for",
    "status",
]
