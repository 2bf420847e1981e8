//! `ProvideErrorMetadata`: the derive, the codes it publishes for `#[waitable]`, error codes in
//! their absolute wire form, and the ready-made implementations for foreign types (blocking
//! clients' errors included).

mod absolute_codes;
mod blocking_clients;
mod derive;
mod foreign_types;
mod published_codes;
