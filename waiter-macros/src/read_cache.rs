//! What this process made of a file, kept while the file is unchanged: a compiler process
//! builds one crate, and a file that twenty `#[waitable]`s need is read once. An entry is served
//! while the file's length and modification time are those it was read with, so an editor's
//! long-lived process (rust-analyzer's) reads an edited file again: what is served is always
//! made from the file's current content.
//!
//! Used for model files (`waitable/file/cache.rs`) and for the source files whose
//! `#[waitable]` functions are compared (`waitable/same_type/`).

use std::collections::HashMap;
use std::hash::Hash;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

/// What identifies one version of a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

/// Per key: the version read, what was made of it, and how many times it was read.
type Entries<K, V> = HashMap<K, (Stamp, Arc<V>, usize)>;

/// A cache for a `static`: `ReadCache::new()` is `const`.
pub(crate) struct ReadCache<K, V> {
    entries: Mutex<Option<Entries<K, V>>>,
}

impl<K: Hash + Eq, V> ReadCache<K, V> {
    pub(crate) const fn new() -> Self {
        ReadCache {
            entries: Mutex::new(None),
        }
    }

    /// What `make` made of the file at `path` (its text), from the cache while the file is
    /// unchanged, else read, made and kept under `key`. `Err` when the file cannot be read.
    pub(crate) fn load(
        &self,
        key: K,
        path: &Path,
        make: impl FnOnce(&str) -> V,
    ) -> std::io::Result<Arc<V>> {
        let meta = std::fs::metadata(path)?;
        let stamp = Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        };
        // A panic while the lock was held left no half-written entry (entries are inserted
        // whole).
        let reads = match self.lock().get_or_insert_with(HashMap::new).get(&key) {
            Some((cached, made, _)) if *cached == stamp => return Ok(Arc::clone(made)),
            Some((_, _, reads)) => *reads,
            None => 0,
        };
        // Read outside the lock: another thread of the same process (rust-analyzer expands in
        // several) may read the same file meanwhile; either result is the same.
        let text = std::fs::read_to_string(path)?;
        let made = Arc::new(make(&text));
        self.lock()
            .get_or_insert_with(HashMap::new)
            .insert(key, (stamp, Arc::clone(&made), reads + 1));
        Ok(made)
    }

    /// How many times this process read the file under `key` (not served from the cache).
    #[cfg(test)]
    pub(crate) fn reads(&self, key: &K) -> usize {
        self.lock()
            .as_ref()
            .and_then(|entries| entries.get(key))
            .map_or(0, |(_, _, reads)| *reads)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Entries<K, V>>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
