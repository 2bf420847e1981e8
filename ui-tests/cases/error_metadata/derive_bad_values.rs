use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
enum E {
    #[error_metadata(code = NotFound)]
    A,
    #[error_metadata(status = 700)]
    B,
    #[error_metadata(code = "")]
    C,
    #[error_metadata(code = "Not Found")]
    D,
    #[error_metadata(transient = true)]
    F,
    #[error_metadata(code)]
    G,
}

fn main() {}
