//! The service over real sockets, with a bare reqwest client.

use std::time::Duration;

use serde_json::{Value, json};

use super::*;

async fn start(settle: Settle) -> RunningService {
    ExampleService::builder()
        .seed(1)
        .settle(settle)
        .start()
        .await
        .unwrap()
}

async fn call(req: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, Value) {
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.json().await.unwrap())
}

#[tokio::test]
async fn lifecycle_over_http() {
    let service = start(Settle::AfterReads(1)).await;
    let http = reqwest::Client::new();
    let url = service.url();
    let body = json!({"name": "web", "members": [{"name": "a", "role": "primary"}, {"name": "b"}]});

    let (status, _, created) = call(http.post(format!("{url}/resources")).json(&body)).await;
    assert_eq!(status, 201);
    assert_eq!(created["status"], "CREATING");
    assert_eq!(
        created["members"][1],
        json!({"name": "b", "role": "replica", "status": "JOINING"})
    );

    let (status, _, again) = call(http.post(format!("{url}/resources")).json(&body)).await;
    assert_eq!(
        (status, again["code"].as_str()),
        (409, Some("ResourceInUseException"))
    );

    let (_, _, first) = call(http.get(format!("{url}/resources/web"))).await;
    assert_eq!(first["status"], "CREATING");
    let (_, _, listed) = call(http.get(format!("{url}/resources?prefix=we"))).await;
    assert_eq!(listed["resources"][0]["status"], "ACTIVE");
    assert_eq!(listed["resources"][0]["members"][0]["status"], "ACTIVE");

    let (status, _, deleting) = call(http.delete(format!("{url}/resources/web"))).await;
    assert_eq!(
        (status, deleting["status"].as_str()),
        (202, Some("DELETING"))
    );
    let (status, _, _) = call(http.get(format!("{url}/resources/web"))).await;
    assert_eq!(status, 200);
    let (status, _, gone) = call(http.get(format!("{url}/resources/web"))).await;
    assert_eq!((status, gone["code"].as_str()), (404, Some("NotFound")));
    assert_eq!(service.stats().requests, 7);
}

#[tokio::test]
async fn timed_settling_and_failing_names() {
    let settle = Settle::After {
        min: Duration::from_millis(20),
        max: Duration::from_millis(40),
    };
    let service = start(settle).await;
    let http = reqwest::Client::new();
    let url = service.url();
    for name in ["ok", "fail-x"] {
        http.post(format!("{url}/resources"))
            .json(&json!({ "name": name }))
            .send()
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, _, list) = call(http.get(format!("{url}/resources"))).await;
    assert_eq!(list["resources"][0]["name"], "fail-x");
    assert_eq!(list["resources"][0]["status"], "FAILED");
    assert!(
        list["resources"][0]["statusReason"]
            .as_str()
            .unwrap()
            .contains("fail-")
    );
    assert_eq!(list["resources"][1]["status"], "ACTIVE");
}

#[tokio::test]
async fn malformed_bodies_and_unknown_routes_get_coded_errors() {
    let service = start(Settle::Manual).await;
    let http = reqwest::Client::new();
    let url = service.url();
    let (status, _, err) = call(
        http.post(format!("{url}/resources"))
            .header("content-type", "application/json")
            .body("{"),
    )
    .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (400, Some("ValidationException"))
    );
    let (status, _, err) = call(http.get(format!("{url}/nothing/here"))).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (404, Some("UnknownOperation"))
    );
}

#[tokio::test]
async fn throttling_answers_carry_codes_and_retry_after() {
    let service = start(Settle::Manual).await;
    service.faults().set(FaultConfig {
        retry_after: Some(Duration::from_millis(1500)),
        ..FaultConfig::none()
    });
    service
        .faults()
        .script([Fault::Throttle, Fault::SlowDown, Fault::Unavailable]);
    let http = reqwest::Client::new();
    let get = || http.get(format!("{}/resources", service.url()));

    let (status, headers, body) = call(get()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("ThrottlingException"))
    );
    assert_eq!(headers["retry-after"], "2");
    assert_eq!(headers["x-amz-retry-after"], "1500");
    let (status, headers, body) = call(get()).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("SlowDown")));
    assert!(headers.contains_key("retry-after"));
    let (status, headers, body) = call(get()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("ServiceUnavailable"))
    );
    assert!(!headers.contains_key("retry-after"));
    let (status, _, _) = call(get()).await;
    assert_eq!(status, 200);

    let stats = service.stats();
    assert_eq!(
        (stats.requests, stats.throttled, stats.unavailable),
        (4, 2, 1)
    );
    let outcomes: Vec<_> = service
        .request_log()
        .into_iter()
        .map(|r| r.outcome)
        .collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Throttled,
            Outcome::Throttled,
            Outcome::Unavailable,
            Outcome::Answered(200)
        ]
    );
}

#[tokio::test]
async fn reset_drops_the_connection_without_an_answer() {
    let service = start(Settle::Manual).await;
    service.faults().script([Fault::Reset]);
    let http = reqwest::Client::new();
    let err = http
        .get(format!("{}/resources", service.url()))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_request() || err.is_connect(), "{err:?}");
    let stats = service
        .wait_for_stats(Duration::from_secs(5), |s| s.connections_closed == 1)
        .await
        .unwrap();
    assert_eq!((stats.resets, stats.connections_opened), (1, 1));
    // The next request gets a fresh connection and an answer.
    assert_eq!(
        http.get(format!("{}/resources", service.url()))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn a_hanging_request_is_released_when_the_client_gives_up() {
    let service = start(Settle::Manual).await;
    service.faults().script([Fault::Hang]);
    let http = reqwest::Client::new();
    let started = std::time::Instant::now();
    let err = http
        .get(format!("{}/resources", service.url()))
        .timeout(Duration::from_millis(100))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
    let stats = service
        .wait_for_stats(Duration::from_secs(5), |s| {
            s.hung_cancelled == 1 && s.connections_closed == 1
        })
        .await
        .expect("the server sees the connection closed and drops the handler");
    assert_eq!(stats.hung, 1);
}

#[tokio::test]
async fn latency_delays_answers() {
    let service = start(Settle::Manual).await;
    let d = Duration::from_millis(60);
    service.faults().set(FaultConfig {
        latency: Some((d, d)),
        ..FaultConfig::none()
    });
    let started = std::time::Instant::now();
    reqwest::get(format!("{}/resources", service.url()))
        .await
        .unwrap();
    assert!(started.elapsed() >= d);
    service.faults().script([Fault::Delay(d)]);
    let started = std::time::Instant::now();
    reqwest::get(format!("{}/resources", service.url()))
        .await
        .unwrap();
    assert!(started.elapsed() >= 2 * d);
}

#[tokio::test]
async fn manual_settle_and_shutdown() {
    let service = start(Settle::Manual).await;
    let url = service.url();
    let http = reqwest::Client::new();
    http.post(format!("{url}/resources"))
        .json(&json!({"name": "m"}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        service.resource("m").unwrap().status,
        ResourceStatus::Creating
    );
    assert!(service.settle("m"));
    assert_eq!(
        service.resource("m").unwrap().status,
        ResourceStatus::Active
    );
    service.shutdown().await;
    let err = reqwest::Client::new()
        .get(format!("{url}/resources"))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_connect() || err.is_request(), "{err:?}");
}
