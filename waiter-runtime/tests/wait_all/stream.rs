//! `WaitAll::stream`: each result as it comes, with fail-fast and drop as for `wait`.

use super::*;
use futures_util::StreamExt;

#[tokio::test(start_paused = true)]
async fn the_stream_gives_each_result_as_it_comes_and_ends() {
    let ready = [40, 5, 20, 60];
    let mut resources: Vec<Resource> = ready.iter().map(|t| Resource::ReadyAt(secs(*t))).collect();
    resources[3] = Resource::FailsAt(secs(60));
    let service = Service::new(resources, Duration::ZERO);
    let mut stream = WaitAll::new(service.waiters()).stream(secs(600));
    let mut order = Vec::new();
    let mut last_elapsed = Duration::ZERO;
    while let Some((index, result)) = stream.next().await {
        let elapsed = match &result {
            Ok(done) => done.elapsed,
            Err(WaiterError::FailureState { final_poll, .. }) => final_poll.elapsed,
            Err(e) => panic!("{e}"),
        };
        // In the order they finished.
        assert!(elapsed >= last_elapsed);
        last_elapsed = elapsed;
        order.push(index);
    }
    order.sort_unstable();
    assert_eq!(order, [0, 1, 2, 3]);
}

#[tokio::test(start_paused = true)]
async fn fail_fast_and_drop_work_through_the_stream() {
    let mut resources = vec![Resource::Never; 5];
    resources[2] = Resource::FailsAt(secs(10));
    let service = Service::new(resources, ms(500));
    let results: Vec<_> = WaitAll::new(service.waiters())
        .fail_fast(true)
        .stream(secs(600))
        .collect()
        .await;
    assert_eq!(results.len(), 5);
    assert_eq!(results[0].0, 2, "the failure comes first");
    for (index, result) in &results[1..] {
        assert!(is_stopped_by(result, 2), "{index}: {result:?}");
    }
    // Dropped after the first result: every poll in flight is cancelled.
    let service = Service::new(vec![Resource::Never; 4], secs(10));
    let mut stream = WaitAll::new(service.waiters())
        .concurrency(0)
        .stream(secs(600));
    assert!(tokio::time::timeout(secs(5), stream.next()).await.is_err());
    drop(stream);
    assert_eq!(service.cancelled.load(Ordering::SeqCst), 4);
    tokio::time::advance(secs(600)).await;
    assert_eq!(service.requests(), 4);
}

#[test]
fn the_stream_is_send() {
    fn assert_send<T: Send>(_: T) {}
    let service = Service::new(vec![Resource::Never], Duration::ZERO);
    assert_send(WaitAll::new(service.waiters()).stream(secs(1)));
}
