//! `#[waitable]` on hand-written clients: the attribute, what users paste from Smithy models,
//! Smithy's own validation cases, and the typed paths that must keep compiling.

mod attribute;
mod pasted;
mod smithy_cases;
mod typed_paths;
