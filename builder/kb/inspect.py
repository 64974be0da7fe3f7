"""Human views of the store for ``discobench kb show`` (labels resolved in one query)."""

from __future__ import annotations

from builder.errors import InputError
from builder.kb.store import KnowledgeStore
from builder.records.kb import EntityView, PropertyView, QualifierView, StatementView
from builder.records.wikidata import EntityIdValue, Snak


def _value_text(snak: Snak, labels: dict[str, str]) -> str:
    if snak.snaktype == "somevalue":
        return "(unknown value)"
    if snak.snaktype == "novalue" or snak.datavalue is None:
        return "(no value)"
    return snak.datavalue.display(labels)


def _entity_ids(snaks: list[Snak]) -> list[str]:
    out = []
    for snak in snaks:
        if snak.datavalue is not None and snak.datavalue.type == "wikibase-entityid":
            parsed = snak.datavalue.parsed()
            if isinstance(parsed, EntityIdValue):
                out.append(parsed.id)
    return out


def entity_view(store: KnowledgeStore, entity_id: str, lang: str = "en") -> EntityView:
    """The entity with best statements, qualifiers and every id shown with its label."""
    entity = store.get_entity(entity_id)
    if entity is None:
        raise InputError(
            f"entity {entity_id} is not in the store ({store.path})",
            hint="check the id, or import it with `discobench kb import`",
        )
    best = {pid: entity.best_statements(pid) for pid in entity.claims}
    snaks = [s.mainsnak for group in best.values() for s in group]
    snaks += [
        q for group in best.values() for s in group for qs in s.qualifiers.values() for q in qs
    ]
    ids = [*entity.claims, *(q.property for q in snaks), *_entity_ids(snaks)]
    labels = store.labels(ids, lang)
    properties = []
    for pid, statements in best.items():
        views = [
            StatementView(
                value=_value_text(s.mainsnak, labels),
                value_key=s.value.key() if s.value is not None else None,
                rank=s.rank,
                qualifiers=[
                    QualifierView(
                        property=q.property,
                        property_label=labels.get(q.property),
                        value=_value_text(q, labels),
                    )
                    for qs in s.qualifiers.values()
                    for q in qs
                ],
            )
            for s in statements
        ]
        properties.append(
            PropertyView(
                property=pid,
                property_label=labels.get(pid),
                statements=views,
                total=len(entity.claims[pid]),
            )
        )
    return EntityView(
        id=entity.id,
        kind=entity.type,
        label=entity.label(lang),
        description=entity.description(lang),
        aliases=entity.alias_list(lang),
        datatype=entity.datatype,
        domain=store.domain_of(entity.id),
        properties=properties,
        has_page=store.get_page(entity.id) is not None,
    )
