//! Search results are `Send + Sync`: they can be held across `.await` in a task spawned on a
//! multi-threaded runtime.

use std::sync::Arc;

use serde_json::{Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Array, Node, Object, SearchError, Searchable, Serialized};

fn send_sync<T: Send + Sync>(_: &T) {}

// Compile-time: the result types themselves.
const _: fn() = || {
    fn assert<T: Send + Sync>() {}
    assert::<Node<'static>>();
    assert::<Array<'static>>();
    assert::<Object<'static>>();
    assert::<Result<Node<'static>, SearchError>>();
};

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct Table {
    table_status: String,
    items: Vec<Item>,
}

#[derive(Searchable, serde::Serialize)]
struct Item {
    id: u32,
}

fn table() -> Table {
    Table {
        table_status: "ACTIVE".into(),
        items: vec![Item { id: 1 }, Item { id: 2 }],
    }
}

/// A search held across an `.await`, as a new user writes it.
async fn f(v: &Value) -> usize {
    let r = jmespath!("a").search(v).unwrap();
    tokio::task::yield_now().await;
    format!("{r:?}").len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_held_across_await_in_a_spawned_task() {
    let v = Arc::new(json!({"a": {"b": [1, 2]}}));
    let len = tokio::spawn(async move { f(&v).await }).await.unwrap();
    assert_eq!(len, r#"{"b":[1,2]}"#.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_of_every_kind_of_data_cross_await_points() {
    let data = Arc::new(table());
    let task = tokio::spawn(async move {
        // A derived type: a view into the struct, a projection, a borrowed string.
        let whole = jmespath!("@").search(&*data).unwrap();
        let ids = jmespath!("Items[].id").search(&*data).unwrap();
        let status = jmespath!("TableStatus").search(&*data).unwrap();
        send_sync(&whole);
        tokio::task::yield_now().await;
        // `Serialized<T>`: converted, owned.
        let ser = Serialized(&*data);
        let via_serde = jmespath!("Items[*].id").search(&ser).unwrap();
        send_sync(&via_serde);
        tokio::task::yield_now().await;
        (
            whole.to_value(),
            ids.to_value(),
            status.to_value(),
            via_serde.to_value(),
        )
    });
    let (whole, ids, status, via_serde) = task.await.unwrap();
    assert_eq!(
        whole,
        json!({"TableStatus": "ACTIVE", "Items": [{"id": 1}, {"id": 2}]})
    );
    assert_eq!(ids, json!([1, 2]));
    assert_eq!(status, json!("ACTIVE"));
    assert_eq!(via_serde, json!([1, 2]));
}

#[test]
fn results_over_each_kind_of_data_are_send_and_sync() {
    let value = json!({"a": [{"b": "x"}]});
    let derived = table();
    let serialized = Serialized(&derived);
    send_sync(&jmespath!("a[].b").search(&value).unwrap());
    send_sync(&jmespath!("a").search(&value));
    send_sync(&jmespath!("Items").search(&derived).unwrap());
    send_sync(&jmespath!("@").search(&derived).unwrap());
    send_sync(&jmespath!("Items").search(&serialized).unwrap());
}
