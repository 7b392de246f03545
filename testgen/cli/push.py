"""``testgen push``: upload a test set to the Hugging Face Hub as a dataset (Parquet + dataset card)."""

from __future__ import annotations

import click

from testgen.cli.common import user_errors
from testgen.hub import is_hub_ref, load_dataset_ref, push_dataset, read_summary, resolve_token


@click.command()
@click.option("--dataset", required=True, help="Test set to upload: tests.jsonl, a save_to_disk folder (tests.hf/).")
@click.option("--repo", required=True, help="Dataset repository on the Hub: namespace/name (created when missing).")
@click.option("--split", default="test", show_default=True, help="Split name; the file is data/<split>-*.parquet.")
@click.option("--private", is_flag=True, help="Create the repository private (an existing public one is refused).")
@click.option(
    "--license",
    "license_id",
    default=None,
    help="License id for the card, e.g. cc-by-4.0 [default: the placeholder 'other', to be set].",
)
@click.option("--revision", default="main", show_default=True, help="Branch to commit to (created from main).")
@click.option(
    "--token-env",
    default=None,
    metavar="NAME",
    help="Environment variable holding the token [default: HF_TOKEN, then the `hf auth login` cache].",
)
@user_errors
def push(
    dataset: str, repo: str, split: str, private: bool, license_id: str | None, revision: str, token_env: str | None
) -> None:
    """Upload a test set to the Hugging Face Hub; load it back with --dataset hf://namespace/name."""
    if is_hub_ref(dataset):
        raise click.BadParameter("give a local file or folder to upload", param_hint="--dataset")
    items = load_dataset_ref(dataset)
    token = resolve_token(token_env)
    result = push_dataset(
        items,
        repo,
        split=split,
        private=private,
        license=license_id,
        revision=revision,
        token=token,
        summary=read_summary(dataset),
    )
    click.echo(f"pushed {result.rows} questions to {result.url} (split {split}, {revision} @ {result.commit[:8]})")
    if not license_id:
        click.echo("note: the card's license is the placeholder 'other': push again with --license ID", err=True)
    click.echo(f"load with: evaluate --dataset hf://{repo} --kb DIR   or   datasets.load_dataset({repo!r})")
