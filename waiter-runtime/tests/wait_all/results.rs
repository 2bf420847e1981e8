//! What a set gives back: one result per waiter, in input order, whatever the waiters' types
//! (joined through `map_output` and `map_err`); and its future is `Send`.

use super::*;

#[tokio::test(start_paused = true)]
async fn an_empty_set_returns_an_empty_vec_at_once() {
    let start = Instant::now();
    let results = WaitAll::new(Vec::<Waiter<'_, usize, Error>>::new())
        .wait(secs(60))
        .await;
    assert!(results.is_empty());
    assert_eq!(start.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn a_thousand_waiters_ready_at_random_times_all_succeed_in_input_order() {
    let mut rng = SmallRng::seed_from_u64(19);
    let max_wait = secs(600);
    let ready: Vec<Duration> = (0..1_000)
        .map(|_| ms(rng.random_range(0..590_000)))
        .collect();
    let service = Service::new(
        ready.iter().map(|t| Resource::ReadyAt(*t)).collect(),
        Duration::ZERO,
    );
    let start = Instant::now();
    let results = WaitAll::new(service.waiters()).wait(max_wait).await;
    assert!(start.elapsed() <= max_wait);
    assert_eq!(results.len(), 1_000);
    for (i, result) in results.iter().enumerate() {
        let done = result
            .as_ref()
            .unwrap_or_else(|e| panic!("waiter {i}: {e}"));
        // In input order: result `i` is resource `i`'s, and it was ready when it succeeded.
        assert_eq!(done.output(), Some(&i));
        assert!(
            done.elapsed >= ready[i] && done.elapsed <= max_wait,
            "{i}: {done:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn waiters_of_different_types_join_through_map_output_and_map_err() {
    #[derive(Debug, PartialEq)]
    enum Ready {
        Count(usize),
        Name(&'static str),
    }
    type BoxError = Box<dyn std::error::Error + Send + Sync>;
    let service = Service::new(vec![Resource::ReadyAt(secs(3)); 2], Duration::ZERO);
    let named: Waiter<'_, &'static str, std::io::Error> =
        new_waiter(WaiterMetadata::new("Named", "get"), || async {
            Polled::new(
                Err(std::io::Error::other("gone")),
                Some(Matched::failure(0, None)),
            )
        });
    let results = WaitAll::new([
        service
            .waiter(0)
            .map_output(Ready::Count)
            .map_err(BoxError::from),
        named.map_output(Ready::Name).map_err(BoxError::from),
        service
            .waiter(1)
            .map_output(Ready::Count)
            .map_err(BoxError::from),
    ])
    .wait(secs(60))
    .await;
    assert_eq!(
        results[0].as_ref().unwrap().output(),
        Some(&Ready::Count(0))
    );
    let Err(WaiterError::FailureState { final_poll, .. }) = &results[1] else {
        panic!()
    };
    assert_eq!(final_poll.error().unwrap().to_string(), "gone");
    assert_eq!(
        results[2].as_ref().unwrap().output(),
        Some(&Ready::Count(1))
    );
}

#[test]
fn the_wait_all_future_is_send() {
    fn assert_send<T: Send>(_: T) {}
    let service = Service::new(vec![Resource::Never], Duration::ZERO);
    assert_send(
        WaitAll::new(service.waiters())
            .on_progress(|_: &_| {})
            .wait(secs(1)),
    );
}
