package delayq

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"regexp"
	"strings"
)

// Redis URLs as delayq documents them: redis://[user:password@]host:port[/db] and rediss://... (TLS). A private CA
// for TLS comes from Options.TLSCA or, as for the Java worker, DELAYQ_REDIS_TLS_CA.

var (
	userAndPassword = regexp.MustCompile(`://([^:/@]*):[^@/]*@`)
	passwordOnly    = regexp.MustCompile(`://([^:/@]+)@`)
)

// Redact is the URL without its password, safe for logs and errors.
func Redact(url string) string {
	return passwordOnly.ReplaceAllString(userAndPassword.ReplaceAllString(url, "://$1:***@"), "://***@")
}

func checkURL(url string) error {
	if strings.TrimSpace(url) == "" {
		return invalid("redis", "a Redis URL is required, e.g. redis://localhost:6379")
	}
	if strings.HasPrefix(url, "redis-cluster://") || strings.HasPrefix(url, "rediss-cluster://") {
		return invalid("redis", "Redis Cluster URLs are not supported by the Go client (use the Java, Python or Node client), got %s", Redact(url))
	}
	if !strings.HasPrefix(url, "redis://") && !strings.HasPrefix(url, "rediss://") {
		return invalid("redis", "must start with redis:// or rediss://, got %s", Redact(url))
	}
	return nil
}

func tlsConfig(url, ca string) (*tls.Config, error) {
	if !strings.HasPrefix(url, "rediss://") {
		return nil, nil
	}
	if ca == "" {
		ca = os.Getenv("DELAYQ_REDIS_TLS_CA")
	}
	if ca == "" {
		return &tls.Config{MinVersion: tls.VersionTLS12}, nil
	}
	pem, err := os.ReadFile(ca)
	roots := x509.NewCertPool()
	if err != nil || !roots.AppendCertsFromPEM(pem) {
		return nil, invalid("DELAYQ_REDIS_TLS_CA", "must name a readable PEM file of CA certificates, got %s", ca)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots}, nil
}
