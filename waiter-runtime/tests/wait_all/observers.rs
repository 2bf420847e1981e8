//! Waiters with an `on_poll` observer join a set like any other; each observer sees its own
//! waiter's polls, and the set's progress sees them all.

use super::*;

#[tokio::test(start_paused = true)]
async fn observed_waiters_join_a_set_and_the_sets_progress_still_works() {
    let service = Service::new(vec![Resource::ReadyAt(secs(5)); 3], Duration::ZERO);
    let seen: Vec<Mutex<Vec<u32>>> = (0..3).map(|_| Mutex::new(Vec::new())).collect();
    let progress = Arc::new(AtomicUsize::new(0));
    let polled = Arc::clone(&progress);
    let results = WaitAll::new((0..3).map(|i| {
        let seen = &seen[i];
        service
            .waiter(i)
            .on_poll(move |e: &PollEvent| seen.lock().unwrap().push(e.poll))
    }))
    .on_progress(move |p: &WaitAllProgress| {
        if matches!(p.change, WaitAllChange::Polled(_)) {
            polled.fetch_add(1, Ordering::SeqCst);
        }
    })
    .wait(secs(60))
    .await;
    let mut polls = 0;
    for (i, result) in results.iter().enumerate() {
        let done = result.as_ref().unwrap();
        let seen = seen[i].lock().unwrap();
        assert_eq!(*seen, (1..=done.polls).collect::<Vec<_>>());
        polls += done.polls as usize;
    }
    assert_eq!(progress.load(Ordering::SeqCst), polls);
    assert_eq!(service.requests(), polls);
}

#[tokio::test(start_paused = true)]
async fn observed_and_plain_waiters_mix_through_boxed_observers() {
    type Observer = Box<dyn FnMut(&PollEvent) + Send>;
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 2], Duration::ZERO);
    let count = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&count);
    let observed: Observer = Box::new(move |_: &PollEvent| {
        counted.fetch_add(1, Ordering::SeqCst);
    });
    let quiet: Observer = Box::new(|_: &PollEvent| {});
    let waiters = vec![
        service.waiter(0).on_poll(observed),
        service.waiter(1).on_poll(quiet),
    ];
    let set = WaitAll::new(waiters);
    assert_eq!(set.waiters().len(), 2);
    let results = set.wait(secs(60)).await;
    assert!(results.iter().all(Result::is_ok));
    assert_eq!(count.load(Ordering::SeqCst), 1);
}
