//! The edition-2021 waiter functions, run.

use std::sync::atomic::AtomicU32;
use std::time::Duration;

use waiter_edition2021_tests::{wait_until_mirrored, Client};

fn is_send<T: Send>(t: T) -> T {
    t
}

#[tokio::test(start_paused = true)]
async fn waiters_borrow_self_parameters_and_impl_lifetimes() {
    let name = String::from("client");
    let client = Client {
        name: &name,
        polls: AtomicU32::new(0),
    };
    let id = String::from("thing-1");
    let done = is_send(
        client
            .wait_until_thing_exists(&id, 3)
            .wait(Duration::from_secs(60)),
    )
    .await
    .unwrap();
    assert_eq!(done.polls, 4);

    let echoed = client
        .wait_until_echoed("x", 1u8)
        .wait(Duration::from_secs(1))
        .await
        .unwrap();
    assert_eq!(echoed.output(), Some(&"x"));

    let mirrored = wait_until_mirrored(&id)
        .wait(Duration::from_secs(1))
        .await
        .unwrap();
    assert_eq!(mirrored.output().unwrap().status, "thing-1");
}

#[test]
fn derived_members_with_lifetimes_and_generics_are_searched() {
    use waiter_edition2021_tests::Borrowed;
    let items = [1u32, 2];
    let b = Borrowed {
        name: "x",
        items: &items,
        fixed: [7u8; 2],
        tail: vec![3u32].into_boxed_slice(),
    };
    let found = waiter_runtime::jmespath!("[name, items[1], fixed[0], tail[0]]")
        .search(&b)
        .unwrap();
    assert_eq!(found.to_string(), r#"["x",2,7,3]"#);
}
