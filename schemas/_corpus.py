"""Documents and chunks: how a knowledge-base folder is seen by every other part of the toolkit."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Document(BaseModel):
    """One readable file of the knowledge base."""

    model_config = ConfigDict(frozen=True)

    doc_id: str = Field(description="Path relative to the KB root, POSIX separators (`company/overview.md`).")
    doc_type: str = Field(description="First folder of `doc_id`; `root` for files at the top level.")
    title: str = Field(description="Front-matter title, else the first H1, else the file name without suffix.")
    text: str = Field(description="Body text after front matter, newlines normalised to `\\n`.")
    body_offset: int = Field(default=0, description="Characters of front matter removed before `text`.")
    front_matter: dict[str, str] = Field(default_factory=dict, description="Front matter, values as strings.")
    encoding: str = Field(default="utf-8", description="Encoding the file was decoded with.")
    language: str = Field(default="en", description="Detected (or forced) language code: en, ko, zh, ja, ...")


class Chunk(BaseModel):
    """A contiguous span of a document, cut at markdown structure."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str = Field(description="Content hash of doc_id + text: stable across runs and machines.")
    doc_id: str = Field(description="The document this chunk belongs to.")
    index: int = Field(description="Position of the chunk within its document, from 0.")
    text: str = Field(description="The chunk text, verbatim from `Document.text[start:end]`.")
    start: int = Field(description="Start character offset in `Document.text`.")
    end: int = Field(description="End character offset (exclusive) in `Document.text`.")
    heading_path: list[str] = Field(default_factory=list, description="Headings above the chunk, outermost first.")


class SkippedFile(BaseModel):
    """A file of the KB folder that was not loaded, and why."""

    path: str = Field(description="Path relative to the KB root.")
    reason: str = Field(description="Why it was skipped: unsupported suffix, binary, empty, undecodable, ...")
