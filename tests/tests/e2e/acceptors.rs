//! `output` and `inputOutput` acceptors over loopback TCP, one comparator at a time:
//! `stringEquals`, `booleanEquals`, `allStringEquals`, `anyStringEquals`, and failure
//! `message`s, with the waiters pasted into the example client.

use std::time::Duration;

use waiter_runtime::WaiterError;
use waiter_runtime::waiter::AcceptorState;
use waiter_tests::client::{NewMember, ResourceClient};
use waiter_tests::service::{RunningService, Settle};

const MIN: Duration = Duration::from_millis(5);
const MAX: Duration = Duration::from_millis(20);
const MAX_WAIT: Duration = Duration::from_secs(20);

async fn setup(settle: Settle) -> (RunningService, ResourceClient) {
    crate::common::service_and_client(3, settle).await
}

fn members(names: &[&str]) -> Vec<NewMember> {
    names
        .iter()
        .map(|n| NewMember::new(*n, "replica"))
        .collect()
}

#[tokio::test]
async fn string_equals_success_after_the_resource_settles() {
    let (_service, client) = setup(Settle::AfterReads(2)).await;
    client.create_resource("web", &[]).await.unwrap();
    let mut seen = Vec::new();
    let done = client
        .wait_until_resource_active("web")
        .min_delay(MIN)
        .max_delay(MAX)
        .on_poll(|e: &_| seen.push((e.poll, e.state, e.acceptor)))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.output().unwrap().status, "ACTIVE");
    assert_eq!(
        seen,
        [
            (1, AcceptorState::Retry, None),
            (2, AcceptorState::Retry, None),
            (3, AcceptorState::Success, Some(0))
        ]
    );
}

#[tokio::test]
async fn string_equals_failure_fails_fast_with_the_message_path() {
    let (service, client) = setup(Settle::AfterReads(1)).await;
    client.create_resource("fail-x", &[]).await.unwrap();
    let err = client
        .wait_until_resource_active("fail-x")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        message,
        final_poll,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*acceptor, final_poll.polls), (1, 2));
    let reason = service.resource("fail-x").unwrap().status_reason.unwrap();
    assert_eq!(message.as_deref(), Some(reason.as_str()));
    assert!(err.to_string().contains(&reason), "{err}");
    assert_eq!(final_poll.output().unwrap().status, "FAILED");
}

#[tokio::test]
async fn a_failure_message_built_with_jmespath_functions() {
    let (_service, client) = setup(Settle::Manual).await;
    client.create_resource("doomed", &[]).await.unwrap();
    client.delete_resource("doomed").await.unwrap();
    let err = client
        .wait_until_resource_active("doomed")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor: 2,
        message,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(message.as_deref(), Some("resource doomed is being deleted"));
}

#[tokio::test]
async fn all_string_equals_over_nested_members() {
    let (_service, client) = setup(Settle::AfterReads(1)).await;
    client
        .create_resource("db", &members(&["a", "b", "c"]))
        .await
        .unwrap();
    let mut acceptors = Vec::new();
    let done = client
        .wait_until_members_active("db")
        .min_delay(MIN)
        .max_delay(MAX)
        .on_poll(|e: &_| acceptors.push(e.acceptor))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
    assert_eq!(acceptors, [None, Some(0)]);
    assert!(
        done.output()
            .unwrap()
            .members
            .iter()
            .all(|m| m.status == "ACTIVE")
    );
}

#[tokio::test]
async fn boolean_equals_on_a_comparison() {
    // No members: `members[].status` is an empty list, which allStringEquals never matches;
    // the second acceptor, `length(members) == `0` && status == 'ACTIVE'`, decides.
    let (_service, client) = setup(Settle::AfterReads(1)).await;
    client.create_resource("solo", &[]).await.unwrap();
    let mut acceptors = Vec::new();
    let done = client
        .wait_until_members_active("solo")
        .min_delay(MIN)
        .max_delay(MAX)
        .on_poll(|e: &_| acceptors.push(e.acceptor))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!((done.polls, acceptors), (2, vec![None, Some(1)]));
}

#[tokio::test]
async fn any_string_equals_failure_with_a_list_message() {
    let (_service, client) = setup(Settle::AfterReads(0)).await;
    client
        .create_resource("fail-m", &members(&["m1", "m2"]))
        .await
        .unwrap();
    let err = client
        .wait_until_members_active("fail-m")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        message,
        final_poll,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*acceptor, final_poll.polls), (2, 1));
    assert_eq!(
        message.as_deref(),
        Some("m1; m2"),
        "a list of strings is joined"
    );
}

#[tokio::test]
async fn all_string_equals_over_a_list_projection() {
    let (_service, client) = setup(Settle::AfterReads(1)).await;
    for name in ["app-a", "app-b", "app-c", "other"] {
        client.create_resource(name, &[]).await.unwrap();
    }
    let done = client
        .wait_until_all_resources_active("app-")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
    let names: Vec<_> = done
        .output()
        .unwrap()
        .resources
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["app-a", "app-b", "app-c"]);
}

#[tokio::test]
async fn any_string_equals_over_a_list_projection_fails_fast_with_a_filter_message() {
    let (service, client) = setup(Settle::AfterReads(0)).await;
    for name in ["ok-1", "fail-1", "fail-2"] {
        client.create_resource(name, &[]).await.unwrap();
    }
    let err = client
        .wait_until_all_resources_active("")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        message,
        final_poll,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(final_poll.polls, 1);
    let reason = service.resource("fail-1").unwrap().status_reason.unwrap();
    assert_eq!(message.clone().unwrap(), format!("{reason}; {reason}"));
}

#[tokio::test]
async fn input_output_compares_the_request_with_the_answer() {
    let (service, client) = setup(Settle::Manual).await;
    client.create_resource("a", &[]).await.unwrap();
    let names = vec!["a".to_owned(), "b".to_owned()];
    let waiter = {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .wait_until_resources_exist(&names)
                .min_delay(MIN)
                .max_delay(MAX)
                .wait(MAX_WAIT)
                .await
                .map(|d| d.polls)
        })
    };
    // Let a few polls see only `a`, then create `b`.
    service
        .wait_for_stats(MAX_WAIT, |s| s.requests >= 4)
        .await
        .unwrap();
    client.create_resource("b", &[]).await.unwrap();
    let polls = waiter.await.unwrap().unwrap();
    assert!(polls >= 3, "{polls}");
}
