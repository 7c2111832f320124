# GENERATED from snapshot.schema.json (the snapshot contract v1): do not edit.
# Regenerate with
#   UPDATE_CLIENT_MODELS=1 cargo test -p sentience-snapshot-core contract::client_models
# (a cargo test fails while this file is stale).
"""Typed views of a snapshot (contract v1, docs/contracts/snapshot.md).

Each class wraps the parsed JSON object without copying it: a property
reads its key when asked, nested objects are views too, and lists of
objects (`ViewList`) build an element's view when indexed. `.raw` is the
JSON object itself; `FIELDS` lists each key as (name, JSON type, required).
"""

from __future__ import annotations

from typing import ClassVar, List, Literal, Optional, Tuple

from ._view import View, ViewList, _opt

__all__ = [
    "Role",
    "SkipReason",
    "Snapshot",
    "SnapshotError",
    "Viewport",
    "SnapshotMeta",
    "Stability",
    "SnapshotDiff",
    "Frames",
    "FrameIncluded",
    "FrameSkipped",
    "Element",
    "BBox",
    "VisualCues",
    "ElementState",
    "SelectOption",
    "View",
    "ViewList",
]

Role = Literal["button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "image", "generic"]
SkipReason = Literal["cross_origin", "timeout", "not_loaded", "hidden", "unreachable", "ambiguous", "too_deep", "too_many", "error", "load_failed", "no_script", "unresponsive"]


class Snapshot(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("diff", "SnapshotDiff", False),
        ("elements", "list:Element", True),
        ("frames", "Frames", False),
        ("meta", "SnapshotMeta", True),
        ("screenshot", "string", False),
        ("screenshot_format", "literal", False),
        ("snapshot_id", "integer", False),
        ("status", "literal", True),
        ("timestamp", "string", True),
        ("url", "string", True),
        ("viewport", "Viewport", True),
    )

    @property
    def diff(self) -> Optional[SnapshotDiff]:
        """Addition to docs/contracts/snapshot.md §11.3: present when asked (diff: true or since: N). Compared with snapshot `since` (null: no earlier snapshot of this page to compare with). added / changed: ids among this snapshot's elements that were not candidates then / whose role, text inputs, state, in_viewport, is_occluded or bbox (any edge by more than 2 px) changed. removed: ids that were candidates then and are no candidates now (gone, hidden or no longer actionable), whatever the filter and limit. Each list ascending."""
        return _opt(self._raw.get("diff"), lambda v: SnapshotDiff(v))

    @property
    def elements(self) -> ViewList[Element]:
        return ViewList(self._raw["elements"], Element)

    @property
    def frames(self) -> Optional[Frames]:
        return _opt(self._raw.get("frames"), lambda v: Frames(v))

    @property
    def meta(self) -> SnapshotMeta:
        """Addition to docs/contracts/snapshot.md §11.5: what the engine did, so nothing is dropped silently."""
        return SnapshotMeta(self._raw["meta"])

    @property
    def screenshot(self) -> Optional[str]:
        return self._raw.get("screenshot")

    @property
    def screenshot_format(self) -> Optional[Literal["png", "jpeg"]]:
        return self._raw.get("screenshot_format")

    @property
    def snapshot_id(self) -> Optional[int]:
        """Addition to docs/contracts/snapshot.md §11.3: this snapshot's number, increasing within the page's life (the document); what diff.since and the since option refer to."""
        return self._raw.get("snapshot_id")

    @property
    def status(self) -> Literal["success"]:
        return self._raw["status"]

    @property
    def timestamp(self) -> str:
        return self._raw["timestamp"]

    @property
    def url(self) -> str:
        return self._raw["url"]

    @property
    def viewport(self) -> Viewport:
        return Viewport(self._raw["viewport"])


class SnapshotError(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("error", "string", True),
        ("requires_license", "boolean", False),
        ("status", "literal", True),
    )

    @property
    def error(self) -> str:
        return self._raw["error"]

    @property
    def requires_license(self) -> Optional[bool]:
        return self._raw.get("requires_license")

    @property
    def status(self) -> Literal["error"]:
        return self._raw["status"]


class Viewport(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("height", "number", True),
        ("width", "number", True),
    )

    @property
    def height(self) -> float:
        return self._raw["height"]

    @property
    def width(self) -> float:
        return self._raw["width"]


class SnapshotMeta(View):
    """Addition to docs/contracts/snapshot.md §11.5: what the engine did, so nothing is dropped silently."""

    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("candidates", "integer", True),
        ("elements_scanned", "integer", True),
        ("engine_path", "literal", True),
        ("engine_version", "string", True),
        ("filtered_out", "integer", True),
        ("stability", "Stability", False),
        ("truncated_by_limit", "integer", True),
    )

    @property
    def candidates(self) -> int:
        return self._raw["candidates"]

    @property
    def elements_scanned(self) -> int:
        return self._raw["elements_scanned"]

    @property
    def engine_path(self) -> Literal["content_script", "service_worker"]:
        return self._raw["engine_path"]

    @property
    def engine_version(self) -> str:
        return self._raw["engine_version"]

    @property
    def filtered_out(self) -> int:
        return self._raw["filtered_out"]

    @property
    def stability(self) -> Optional[Stability]:
        """Addition to docs/contracts/snapshot.md §11.5: present when the snapshot was asked to wait_for_stable. settled: the DOM was quiet for quiet_ms before the snapshot; false: timeout_ms was reached first and the page was captured as it was."""
        return _opt(self._raw.get("stability"), lambda v: Stability(v))

    @property
    def truncated_by_limit(self) -> int:
        return self._raw["truncated_by_limit"]


class Stability(View):
    """Addition to docs/contracts/snapshot.md §11.5: present when the snapshot was asked to wait_for_stable. settled: the DOM was quiet for quiet_ms before the snapshot; false: timeout_ms was reached first and the page was captured as it was."""

    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("quiet_ms", "integer", True),
        ("settled", "boolean", True),
        ("timeout_ms", "integer", True),
        ("waited_ms", "integer", True),
    )

    @property
    def quiet_ms(self) -> int:
        return self._raw["quiet_ms"]

    @property
    def settled(self) -> bool:
        return self._raw["settled"]

    @property
    def timeout_ms(self) -> int:
        return self._raw["timeout_ms"]

    @property
    def waited_ms(self) -> int:
        return self._raw["waited_ms"]


class SnapshotDiff(View):
    """Addition to docs/contracts/snapshot.md §11.3: present when asked (diff: true or since: N). Compared with snapshot `since` (null: no earlier snapshot of this page to compare with). added / changed: ids among this snapshot's elements that were not candidates then / whose role, text inputs, state, in_viewport, is_occluded or bbox (any edge by more than 2 px) changed. removed: ids that were candidates then and are no candidates now (gone, hidden or no longer actionable), whatever the filter and limit. Each list ascending."""

    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("added", "list:integer", True),
        ("changed", "list:integer", True),
        ("removed", "list:integer", True),
        ("since", "nullable:integer", True),
    )

    @property
    def added(self) -> List[int]:
        return self._raw["added"]

    @property
    def changed(self) -> List[int]:
        return self._raw["changed"]

    @property
    def removed(self) -> List[int]:
        return self._raw["removed"]

    @property
    def since(self) -> Optional[int]:
        return self._raw["since"]


class Frames(View):
    """Addition to docs/contracts/snapshot.md §11.4: iframe coverage. Elements of the included frames are in `elements` with bboxes in top-level viewport coordinates; frames listed in `skipped` contributed nothing. Absent when the snapshot was taken with `frames: false` (or by another producer)."""

    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("included", "list:FrameIncluded", True),
        ("skipped", "list:FrameSkipped", True),
    )

    @property
    def included(self) -> ViewList[FrameIncluded]:
        return ViewList(self._raw["included"], FrameIncluded)

    @property
    def skipped(self) -> ViewList[FrameSkipped]:
        return ViewList(self._raw["skipped"], FrameSkipped)


class FrameIncluded(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("depth", "integer", True),
        ("url", "string", True),
        ("via", "literal", True),
    )

    @property
    def depth(self) -> int:
        """1 for a frame of the top page, 2 for a frame inside it, …"""
        return self._raw["depth"]

    @property
    def url(self) -> str:
        return self._raw["url"]

    @property
    def via(self) -> Literal["direct", "message"]:
        """direct: walked by its same-origin parent's content script in the same task; message: its walk came through the extension's messaging (another origin, or a frame that had not yet learnt its frameId, as on a page's first snapshot)."""
        return self._raw["via"]


class FrameSkipped(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("reason", "literal", True),
        ("url", "string", True),
    )

    @property
    def reason(self) -> SkipReason:
        """cross_origin: a frame of another origin than the calling page script's, or below one (page scripts see what the same-origin policy lets them; docs/api.md "Who may see and do what"); timeout: no answer within frames.timeout_ms (or after the frame phase's cap of 3 timeouts); not_loaded: its document has not arrived yet; hidden: visibility hidden or an empty content box; unreachable: no content script answers (e.g. a non-web URL); ambiguous: its nonce was claimed twice (replayed by a page), so its data could not be trusted to be its own; too_deep: nested deeper than 8; too_many: over 64 frames; error: malformed answer; load_failed: the browser reports its last navigation failed (network error, blocked by CSP frame-src or X-Frame-Options: an error page), so it was not waited for; no_script: a document is there but no content script of ours runs in it; unresponsive: it timed out on an earlier snapshot and has neither navigated nor answered since, so it was not waited for."""
        return self._raw["reason"]

    @property
    def url(self) -> str:
        """The iframe's src as the parent sees it."""
        return self._raw["url"]


class Element(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("bbox", "BBox", True),
        ("id", "integer", True),
        ("importance", "integer", True),
        ("in_viewport", "boolean", True),
        ("is_occluded", "boolean", True),
        ("role", "literal", True),
        ("state", "ElementState", False),
        ("text", "nullable:string", True),
        ("visual_cues", "VisualCues", True),
        ("z_index", "integer", True),
    )

    @property
    def bbox(self) -> BBox:
        return BBox(self._raw["bbox"])

    @property
    def id(self) -> int:
        return self._raw["id"]

    @property
    def importance(self) -> int:
        return self._raw["importance"]

    @property
    def in_viewport(self) -> bool:
        return self._raw["in_viewport"]

    @property
    def is_occluded(self) -> bool:
        return self._raw["is_occluded"]

    @property
    def role(self) -> Role:
        return self._raw["role"]

    @property
    def state(self) -> Optional[ElementState]:
        return _opt(self._raw.get("state"), lambda v: ElementState(v))

    @property
    def text(self) -> Optional[str]:
        return self._raw["text"]

    @property
    def visual_cues(self) -> VisualCues:
        return VisualCues(self._raw["visual_cues"])

    @property
    def z_index(self) -> int:
        return self._raw["z_index"]


class BBox(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("height", "number", True),
        ("width", "number", True),
        ("x", "number", True),
        ("y", "number", True),
    )

    @property
    def height(self) -> float:
        return self._raw["height"]

    @property
    def width(self) -> float:
        return self._raw["width"]

    @property
    def x(self) -> float:
        return self._raw["x"]

    @property
    def y(self) -> float:
        return self._raw["y"]


class VisualCues(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("background_color_name", "nullable:string", True),
        ("is_clickable", "boolean", True),
        ("is_primary", "boolean", True),
    )

    @property
    def background_color_name(self) -> Optional[str]:
        return self._raw["background_color_name"]

    @property
    def is_clickable(self) -> bool:
        return self._raw["is_clickable"]

    @property
    def is_primary(self) -> bool:
        return self._raw["is_primary"]


class ElementState(View):
    """Addition to docs/contracts/snapshot.md §11.2: the element's interaction state; each key is present only when meaningful for the element (consumers must tolerate a missing state and missing keys)."""

    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("checked", "literal", False),
        ("disabled", "literal", False),
        ("expanded", "boolean", False),
        ("options", "list:SelectOption", False),
        ("required", "literal", False),
        ("selected", "boolean", False),
        ("value", "string", False),
    )

    @property
    def checked(self) -> Optional[Literal[True, False, "mixed"]]:
        return self._raw.get("checked")

    @property
    def disabled(self) -> Optional[Literal[True]]:
        return self._raw.get("disabled")

    @property
    def expanded(self) -> Optional[bool]:
        return self._raw.get("expanded")

    @property
    def options(self) -> Optional[ViewList[SelectOption]]:
        return _opt(self._raw.get("options"), lambda v: ViewList(v, SelectOption))

    @property
    def required(self) -> Optional[Literal[True]]:
        return self._raw.get("required")

    @property
    def selected(self) -> Optional[bool]:
        return self._raw.get("selected")

    @property
    def value(self) -> Optional[str]:
        return self._raw.get("value")


class SelectOption(View):
    __slots__ = ()
    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (
        ("selected", "boolean", True),
        ("text", "string", True),
        ("value", "string", True),
    )

    @property
    def selected(self) -> bool:
        return self._raw["selected"]

    @property
    def text(self) -> str:
        return self._raw["text"]

    @property
    def value(self) -> str:
        return self._raw["value"]
