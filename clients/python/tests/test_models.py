"""The generated views, without a browser."""

from sentience_sdk import models
from sentience_sdk.models import BBox, Element, Snapshot

RAW = {
    "status": "success", "timestamp": "t", "url": "u", "viewport": {"width": 1, "height": 2},
    "elements": [
        {"id": 3, "role": "button", "text": None, "importance": 5, "bbox": {"x": 1, "y": 2, "width": 3, "height": 4},
         "visual_cues": {"is_primary": True, "background_color_name": None, "is_clickable": True},
         "in_viewport": True, "is_occluded": False, "z_index": 0},
    ],
    "meta": {"elements_scanned": 1, "candidates": 1, "filtered_out": 0, "truncated_by_limit": 0,
             "engine_path": "content_script", "engine_version": "0.1.0"},
}


def test_views_read_the_json_without_copying():
    snap = Snapshot(RAW)
    assert snap.raw is RAW and snap.viewport.height == 2
    el = snap.elements[0]
    assert isinstance(el, Element) and el.raw is RAW["elements"][0]
    assert el.text is None and el.state is None and el.visual_cues.background_color_name is None
    assert isinstance(el.bbox, BBox) and el.bbox.width == 3
    assert snap.frames is None and snap.diff is None and snap.screenshot is None
    assert len(snap.elements) == 1 and list(snap.elements)[0] == el and snap.elements[:1] == [el]
    assert "id=3" in repr(el) and "1 items" in repr(snap.elements)


def test_every_field_has_a_property():
    for name in models.__all__:
        cls = getattr(models, name)
        if isinstance(cls, type) and issubclass(cls, models.View) and cls is not models.View:
            for field, _, _ in cls.FIELDS:
                assert isinstance(getattr(cls, field), property), f"{name}.{field}"
