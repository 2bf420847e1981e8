//! `#[waitable]` on hand-written clients: the attribute, what users paste from Smithy models,
//! the waiters read from model files (botocore's and Smithy's),
//! Smithy's own validation cases, the typed paths that must keep compiling, and the facts the
//! macros and the runtime must agree on.

mod attribute;
mod macro_runtime_agreement;
mod model_files;
mod pasted;
mod smithy_cases;
mod typed_paths;
