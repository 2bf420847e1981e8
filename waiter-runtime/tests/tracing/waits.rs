//! A `tracing` span per wait and an event per poll.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::waiter::{AcceptorState, WaiterMetadata};

#[derive(Default)]
struct Recorder {
    next_id: AtomicU64,
    spans: Mutex<Vec<String>>,
    events: Mutex<Vec<String>>,
}

struct Fields(String);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.push_str(&format!(" {}={:?}", field.name(), value));
    }
}

#[derive(Clone, Default)]
struct Shared(Arc<Recorder>);

impl Subscriber for Shared {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields(span.metadata().name().to_owned());
        span.record(&mut fields);
        self.0.spans.lock().unwrap().push(fields.0);
        Id::from_u64(self.0.next_id.fetch_add(1, Ordering::SeqCst) + 1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        self.0.events.lock().unwrap().push(fields.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn one_span_per_wait_and_one_event_per_poll() {
    let recorder = Shared::default();
    let _guard = tracing::subscriber::set_default(recorder.clone());
    let mut n = 0;
    let waiter = new_waiter(WaiterMetadata::new("ThingExists", "get_thing"), move || {
        n += 1;
        let n = n;
        async move {
            let matched = (n == 3).then(|| Matched::new(0, AcceptorState::Success));
            Polled::new(Ok::<_, std::io::Error>(n), matched)
        }
    });
    waiter
        .min_delay(Duration::from_secs(1))
        .max_delay(Duration::from_secs(1))
        .wait(Duration::from_secs(60))
        .await
        .unwrap();

    let spans = recorder.0.spans.lock().unwrap();
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert!(
        spans[0].starts_with("waiter waiter=\"ThingExists\" operation=\"get_thing\" max_wait=60s"),
        "{spans:?}"
    );
    let events = recorder.0.events.lock().unwrap();
    assert_eq!(events.len(), 3, "{events:?}");
    for (i, event) in events.iter().enumerate() {
        assert!(event.contains("message=waiter poll"), "{event}");
        assert!(event.contains(&format!("poll={}", i + 1)), "{event}");
        // What the retries inside the poll did (none here).
        assert!(
            event.contains("attempts=1 retry_wait=0ns rate_limit_wait=0ns"),
            "{event}"
        );
    }
    assert!(
        events[0].contains("state=retry") && events[0].contains("next_delay=Some(1s)"),
        "{}",
        events[0]
    );
    assert!(
        events[2].contains("state=success") && events[2].contains("next_delay=None"),
        "{}",
        events[2]
    );
}

/// A blocking wait on a thread inside a tokio runtime's `block_on` warns once per process;
/// outside a runtime, nothing.
#[test]
fn a_blocking_wait_inside_a_runtimes_block_on_warns_once() {
    let recorder = Shared::default();
    let _guard = tracing::subscriber::set_default(recorder.clone());
    let wait = || {
        waiter_runtime::__private_v0_1::blocking_waiter(WaiterMetadata::new("Up", "ping"), || {
            let matched = Some(Matched::new(0, AcceptorState::Success));
            Polled::new(Ok::<_, std::io::Error>(()), matched)
        })
        .wait(Duration::from_secs(1))
        .unwrap()
    };
    let warnings = || {
        let events = recorder.0.events.lock().unwrap();
        events
            .iter()
            .filter(|e| e.contains("a blocking wait runs on a thread driving a tokio runtime"))
            .count()
    };
    wait();
    assert_eq!(warnings(), 0);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        wait();
        wait();
    });
    assert_eq!(warnings(), 1);
}
