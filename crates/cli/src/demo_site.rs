//! The bundled demo site (demo/ at the repo root, embedded in the binary so
//! `sentience snapshot` and `sentience run` work from anywhere), served on
//! 127.0.0.1 on a free port.

use axum::{extract::Path, http::header, response::IntoResponse, routing::get, Router};
use tokio::net::TcpListener;

const FILES: &[(&str, &str)] = &[
    ("index.html", include_str!("../../../demo/index.html")),
    ("login.html", include_str!("../../../demo/login.html")),
    ("welcome.html", include_str!("../../../demo/welcome.html")),
    ("search.html", include_str!("../../../demo/search.html")),
    ("checkout.html", include_str!("../../../demo/checkout.html")),
    (
        "confirmation.html",
        include_str!("../../../demo/confirmation.html"),
    ),
    ("contact.html", include_str!("../../../demo/contact.html")),
    ("thanks.html", include_str!("../../../demo/thanks.html")),
    ("style.css", include_str!("../../../demo/style.css")),
];

async fn file(name: Option<Path<String>>) -> impl IntoResponse {
    let name = name.map_or_else(|| "index.html".to_string(), |Path(n)| n);
    match FILES.iter().find(|(n, _)| *n == name) {
        Some((n, body)) => {
            let kind = if n.ends_with(".css") {
                "text/css"
            } else {
                "text/html; charset=utf-8"
            };
            ([(header::CONTENT_TYPE, kind)], *body).into_response()
        }
        None => (axum::http::StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// A running demo site; dropped → the server task is aborted.
pub struct DemoSite {
    pub base_url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for DemoSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn start() -> anyhow::Result<DemoSite> {
    let app = Router::new()
        .route("/", get(|| file(None)))
        .route("/{name}", get(|p: Path<String>| file(Some(p))));
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(DemoSite {
        base_url: format!("http://{addr}"),
        task,
    })
}
