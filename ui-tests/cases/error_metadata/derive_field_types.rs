use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
enum E {
    A {
        #[error_metadata(status)]
        status: f32,
        #[error_metadata(retry_after)]
        retry_after: u64,
    },
}

fn main() {}
