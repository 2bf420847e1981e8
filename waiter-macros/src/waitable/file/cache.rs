//! The model files read so far by this process, each read and indexed once however many
//! functions name it: a compiler process builds one crate, and a model file read by twenty
//! `#[waitable]`s of it is read once. An entry is keyed by the file's absolute path and format,
//! and served while the file's length and modification time are those it was read with (an
//! editor's long-lived process, rust-analyzer's, sees an edited file read again).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use super::index::{Index, Unreadable};
use crate::waitable::args::Format;

/// What identifies one version of a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

type Loaded = Arc<Result<Index, Unreadable>>;

/// Per file and format: the version read, what it gave, and how many times it was read.
type Files = HashMap<(PathBuf, Format), (Stamp, Loaded, usize)>;

static FILES: Mutex<Option<Files>> = Mutex::new(None);

/// The index of the file at `path` (absolute) read as `format`: from the cache while the file
/// is unchanged, else read, indexed and kept. `Err` when the file cannot be read at all.
pub(super) fn load(path: &Path, format: Format) -> std::io::Result<Loaded> {
    let meta = std::fs::metadata(path)?;
    let stamp = Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
    };
    let key = (path.to_path_buf(), format);
    // A panic while the lock was held left no half-written entry (entries are inserted whole).
    let reads = match FILES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        Some((cached, loaded, _)) if *cached == stamp => return Ok(Arc::clone(loaded)),
        Some((_, _, reads)) => *reads,
        None => 0,
    };
    // Read outside the lock: another thread of the same process (rust-analyzer expands in
    // several) may read the same file meanwhile; either result is the same.
    let text = std::fs::read_to_string(path)?;
    let loaded = Arc::new(Index::read(&text, format));
    FILES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(key, (stamp, Arc::clone(&loaded), reads + 1));
    Ok(loaded)
}

/// How many times this process read the file at `path` as `format` (not served from the
/// cache), for the test that a file named by many functions is read once.
#[cfg(test)]
pub(super) fn reads(path: &Path, format: Format) -> usize {
    FILES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|files| files.get(&(path.to_path_buf(), format)))
        .map_or(0, |(_, _, reads)| *reads)
}
