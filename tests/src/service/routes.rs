//! The HTTP API: axum handlers over the store.

use std::sync::{Arc, Weak};

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::Shared;
use super::model::{CreateResourceRequest, ErrorBody, ListResourcesResponse, Resource};
use super::store::{ApiError, Timer};

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/resources", post(create).get(list))
        .route("/resources/{name}", get(describe).delete(delete))
        .fallback(|| async {
            ApiError {
                status: 404,
                code: "UnknownOperation",
                message: "no such operation".into(),
            }
        })
        .with_state(shared)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (
            status,
            Json(ErrorBody {
                code: self.code.to_owned(),
                message: self.message,
            }),
        )
            .into_response()
    }
}

fn schedule(shared: &Arc<Shared>, timer: Option<Timer>) {
    if let Some(timer) = timer {
        let weak: Weak<Shared> = Arc::downgrade(shared);
        tokio::spawn(async move {
            tokio::time::sleep(timer.delay).await;
            if let Some(shared) = weak.upgrade() {
                shared
                    .store
                    .lock()
                    .unwrap()
                    .settle(&timer.name, Some(timer.generation));
            }
        });
    }
}

async fn create(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<CreateResourceRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Resource>), ApiError> {
    let Json(req) = body.map_err(|e| ApiError {
        status: 400,
        code: "ValidationException",
        message: format!("malformed request body: {}", e.body_text()),
    })?;
    let (resource, timer) = shared.store.lock().unwrap().create(req)?;
    schedule(&shared, timer);
    Ok((StatusCode::CREATED, Json(resource)))
}

async fn describe(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Json<Resource>, ApiError> {
    Ok(Json(shared.store.lock().unwrap().describe(&name)?))
}

async fn delete(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<(StatusCode, Json<Resource>), ApiError> {
    let (resource, timer) = shared.store.lock().unwrap().delete(&name)?;
    schedule(&shared, timer);
    Ok((StatusCode::ACCEPTED, Json(resource)))
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    #[serde(default)]
    prefix: String,
    /// Comma-separated names: only these (the ones that exist).
    #[serde(default)]
    names: Option<String>,
}

async fn list(
    State(shared): State<Arc<Shared>>,
    Query(q): Query<ListQuery>,
) -> Json<ListResourcesResponse> {
    let names: Option<Vec<&str>> = q
        .names
        .as_deref()
        .map(|n| n.split(',').filter(|n| !n.is_empty()).collect());
    let resources = shared
        .store
        .lock()
        .unwrap()
        .list(&q.prefix, names.as_deref());
    Json(ListResourcesResponse { resources })
}
