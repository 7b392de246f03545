"""``testgen kg``: statistics and exports of a saved knowledge graph."""

from __future__ import annotations

import json
from pathlib import Path

import click

from testgen.cli.common import user_errors
from testgen.errors import UserInputError
from testgen.kg.build import build_graph, load_corpus
from testgen.kg.graph import KnowledgeGraph


@click.group()
def kg() -> None:
    """Inspect and export knowledge graphs."""


def _load(kg_file: Path | None, kb: Path | None) -> KnowledgeGraph:
    if kg_file is not None:
        return KnowledgeGraph.load(kg_file)
    if kb is not None:
        return build_graph(load_corpus(kb))
    raise UserInputError("give --kg <file> (saved by testgen build) or --kb <folder>")


@kg.command()
@click.option("--kg", "kg_file", type=click.Path(path_type=Path), help="A graph saved by `testgen build`.")
@click.option("--kb", type=click.Path(path_type=Path), help="Or build the graph from this KB folder.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@user_errors
def stats(kg_file: Path | None, kb: Path | None, as_json: bool) -> None:
    """Counts by node and edge kind, and facts per document."""
    data = _load(kg_file, kb).stats()
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for section in ("nodes", "edges", "facts_by_source", "facts_by_value_type"):
        click.echo(f"{section}: " + ", ".join(f"{k} {v}" for k, v in data[section].items()))
    click.echo("facts per document:")
    for doc_id, count in data["facts_per_document"].items():
        click.echo(f"  {count:5d}  {doc_id}")


@kg.command()
@click.option("--kg", "kg_file", type=click.Path(path_type=Path), help="A graph saved by `testgen build`.")
@click.option("--kb", type=click.Path(path_type=Path), help="Or build the graph from this KB folder.")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json"]), default="graphml", show_default=True)
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path))
@user_errors
def export(kg_file: Path | None, kb: Path | None, fmt: str, output: Path) -> None:
    """Export the graph for graph tools (GraphML for Gephi/yEd/Cytoscape, or node-link JSON)."""
    graph = _load(kg_file, kb)
    path = graph.export_graphml(output) if fmt == "graphml" else graph.save(output)
    click.echo(f"wrote {path}")
