//! ACM (awsJson1_1, PascalCase members).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum DomainStatus {
    PendingValidation,
    Success,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum CertificateStatus {
    PendingValidation,
    Issued,
    Inactive,
    Expired,
    ValidationTimedOut,
    Revoked,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ResourceRecord {
    name: String,
    r#type: String,
    value: String,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DomainValidation {
    domain_name: String,
    validation_emails: Option<Vec<String>>,
    validation_domain: Option<String>,
    validation_status: Option<DomainStatus>,
    resource_record: Option<ResourceRecord>,
    validation_method: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct CertificateDetail {
    certificate_arn: Option<String>,
    domain_name: Option<String>,
    subject_alternative_names: Option<Vec<String>>,
    domain_validation_options: Option<Vec<DomainValidation>>,
    serial: Option<String>,
    created_at: Option<SystemTime>,
    issued_at: Option<SystemTime>,
    status: Option<CertificateStatus>,
    in_use_by: Option<Vec<String>>,
    failure_reason: Option<String>,
    r#type: Option<String>,
    not_after: Option<SystemTime>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeCertificateOutput {
    certificate: Option<CertificateDetail>,
}

fn certificate(status: CertificateStatus, domains: &[DomainStatus]) -> DescribeCertificateOutput {
    DescribeCertificateOutput {
        certificate: Some(CertificateDetail {
            certificate_arn: Some("arn:aws:acm:us-east-1:123:certificate/1".into()),
            domain_name: Some("example.com".into()),
            subject_alternative_names: Some(vec!["www.example.com".into()]),
            domain_validation_options: Some(
                domains
                    .iter()
                    .map(|d| DomainValidation {
                        domain_name: "example.com".into(),
                        validation_emails: None,
                        validation_domain: Some("example.com".into()),
                        validation_status: Some(d.clone()),
                        resource_record: Some(ResourceRecord {
                            name: "_x.example.com.".into(),
                            r#type: "CNAME".into(),
                            value: "_y.acm-validations.aws.".into(),
                        }),
                        validation_method: Some("DNS".into()),
                    })
                    .collect(),
            ),
            serial: None,
            created_at: Some(SystemTime::UNIX_EPOCH),
            issued_at: None,
            status: Some(status),
            in_use_by: Some(vec![]),
            failure_reason: None,
            r#type: Some("AMAZON_ISSUED".into()),
            not_after: None,
        }),
    }
}

impl Svc<DescribeCertificateOutput> {
    #[waitable({
        "CertificateValidated": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Certificate.DomainValidationOptions[].ValidationStatus", "expected": "SUCCESS", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Certificate.DomainValidationOptions[].ValidationStatus", "expected": "PENDING_VALIDATION", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Certificate.Status", "expected": "FAILED", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 60
        }
    })]
    async fn describe_certificate(
        &self,
        certificate_arn: String,
    ) -> Result<DescribeCertificateOutput, AwsError> {
        let _ = certificate_arn;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn acm_certificate_validated() {
    use CertificateStatus::{Issued, PendingValidation};
    use DomainStatus::Success;
    let acm = Svc::new([
        Ok(certificate(
            PendingValidation,
            &[Success, DomainStatus::PendingValidation],
        )),
        Ok(certificate(Issued, &[Success, Success])),
    ]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(success(r), 2);
    let acm = Svc::new([Ok(certificate(
        CertificateStatus::Failed,
        &[DomainStatus::Failed],
    ))]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(failure(r), 2);
    let acm = Svc::new([Err(AwsError("ResourceNotFoundException"))]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(failure(r), 3);
}
