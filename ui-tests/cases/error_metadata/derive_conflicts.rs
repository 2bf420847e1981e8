use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
struct Inner;

#[derive(Debug, ProvideErrorMetadata)]
enum E {
    #[error_metadata(transparent, code = "X")]
    A(Inner),
    #[error_metadata(transparent)]
    B(Inner, String),
    C {
        #[error_metadata(message)]
        first: String,
        #[error_metadata(message)]
        second: String,
    },
    #[error_metadata(code = "D", no_code)]
    D,
    #[error_metadata(code = "E")]
    E(#[error_metadata(code)] String),
    #[error_metadata(code = "C")]
    Duplicate,
    #[error_metadata(retryable, retryable)]
    Twice,
}

fn main() {}
