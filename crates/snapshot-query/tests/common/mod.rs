// Shared by the test files: a small snapshot built from JSON, as a producer
// would send it.
#![allow(dead_code)]
use sentience_snapshot_query::{Element, Snapshot};

pub fn snapshot() -> Snapshot {
    Snapshot::from_json(
        r#"{"status":"success","url":"https://shop.test/","viewport":{"width":1280,"height":800},
        "meta":{"engine_path":"content_script"},"snapshot_id":3,
        "elements":[
         {"id":1,"role":"button","text":"Sign In","importance":850,"bbox":{"x":100,"y":200,"width":120,"height":40},
          "visual_cues":{"is_primary":true,"background_color_name":"blue","is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,"state":{}},
         {"id":2,"role":"link","text":"Forgot password?","importance":120,"bbox":{"x":100,"y":260,"width":90,"height":16},
          "visual_cues":{"is_primary":false,"background_color_name":null,"is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,"state":{}},
         {"id":3,"role":"textbox","text":"Email","importance":1100,"bbox":{"x":100,"y":100,"width":300,"height":30},
          "visual_cues":{"is_primary":false,"background_color_name":"white","is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,"state":{"required":true,"value":"ada@example.com"}},
         {"id":4,"role":"checkbox","text":"Remember me","importance":700,"bbox":{"x":100,"y":150,"width":16,"height":16},
          "visual_cues":{"is_primary":false,"background_color_name":null,"is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,"state":{"checked":"mixed"}},
         {"id":5,"role":"button","text":"Sign in with SSO","importance":-300,"bbox":{"x":100,"y":1900,"width":120,"height":40},
          "visual_cues":{"is_primary":false,"background_color_name":"gray","is_clickable":true},
          "in_viewport":false,"is_occluded":true,"z_index":5,"state":{"disabled":true,"expanded":false}},
         {"id":6,"role":"combobox","text":"Country","importance":1000,"bbox":{"x":100,"y":50,"width":200,"height":30},
          "visual_cues":{"is_primary":false,"background_color_name":null,"is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,
          "state":{"value":"France","options":[{"text":"Germany","value":"de","selected":false},{"text":"France","value":"fr","selected":true}]}},
         {"id":7,"role":"image","text":null,"importance":50,"bbox":{"x":0,"y":0,"width":50,"height":50},
          "in_viewport":true,"is_occluded":false,"z_index":0},
         {"id":8,"role":"button","text":"Tab two","importance":500,"bbox":{"x":400,"y":10,"width":60,"height":20},
          "visual_cues":{"is_primary":false,"background_color_name":null,"is_clickable":true},
          "in_viewport":true,"is_occluded":false,"z_index":0,"state":{"selected":true,"checked":false},"future_field":[1,2]}
        ]}"#,
    )
    .expect("fixture snapshot parses")
}

pub fn ids(s: &Snapshot, idx: &[usize]) -> Vec<String> {
    idx.iter().map(|&i| s.elements[i].id.to_string()).collect()
}

pub fn el(s: &Snapshot, id: u32) -> &Element {
    s.elements.iter().find(|e| e.id == id).expect("id exists")
}
