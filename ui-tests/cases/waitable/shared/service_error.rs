// An error type with a hand-written `ProvideErrorMetadata`: its codes are not known at compile
// time (the `error_type_behind_transparent_*` cases wrap it; not a case itself).
#[derive(Debug)]
pub struct ServiceError(String);

impl waiter_runtime::ProvideErrorMetadata for ServiceError {
    fn code(&self) -> Option<&str> {
        Some(&self.0)
    }
}
