//! The model files read so far by this process, each read and indexed once however many
//! functions name it ([`ReadCache`]: keyed by the file's absolute path and format, and served
//! while the file is unchanged).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{Index, Unreadable};
use crate::read_cache::ReadCache;
use crate::waitable::args::Format;

/// A model file's index as read, the same `Arc` while the file is unchanged.
pub(crate) type Loaded = Arc<Result<Index, Unreadable>>;

static FILES: ReadCache<(PathBuf, Format), Result<Index, Unreadable>> = ReadCache::new();

/// The index of the file at `path` (absolute) read as `format`: from the cache while the file
/// is unchanged, else read, indexed and kept. `Err` when the file cannot be read at all.
pub(super) fn load(path: &Path, format: Format) -> std::io::Result<Loaded> {
    FILES.load((path.to_path_buf(), format), path, |text| {
        Index::read(text, format)
    })
}

/// How many times this process read the file at `path` as `format` (not served from the
/// cache), for the test that a file named by many functions is read once.
#[cfg(test)]
pub(super) fn reads(path: &Path, format: Format) -> usize {
    FILES.reads(&(path.to_path_buf(), format))
}
