package delayq

import (
	"crypto/tls"
	"crypto/x509"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Redis URLs as delayq documents them: redis://[user:password@]host:port[/db], rediss://... (TLS),
// redis-cluster://[user:password@]host:port[,host:port...] and rediss-cluster://... (TLS). A private CA for TLS
// comes from Options.TLSCA or, as for the Java worker, DELAYQ_REDIS_TLS_CA.

var (
	userAndPassword = regexp.MustCompile(`://([^:/@]*):[^@/]*@`)
	passwordOnly    = regexp.MustCompile(`://([^:/@]+)@`)
)

// Redact is the URL without its password, safe for logs and errors.
func Redact(url string) string {
	return passwordOnly.ReplaceAllString(userAndPassword.ReplaceAllString(url, "://$1:***@"), "://***@")
}

// endpoint is a parsed URL: one server (the URL as redigo reads it) or a Cluster's startup nodes.
type endpoint struct {
	url                string
	cluster, tls       bool
	nodes              []string
	username, password string
}

func parseURL(raw string) (endpoint, error) {
	if strings.TrimSpace(raw) == "" {
		return endpoint{}, invalid("redis", "a Redis URL is required, e.g. redis://localhost:6379")
	}
	if strings.HasPrefix(raw, "redis://") || strings.HasPrefix(raw, "rediss://") {
		return endpoint{url: raw, tls: strings.HasPrefix(raw, "rediss://")}, nil
	}
	if !strings.HasPrefix(raw, "redis-cluster://") && !strings.HasPrefix(raw, "rediss-cluster://") {
		return endpoint{}, invalid("redis", "must start with redis://, rediss://, redis-cluster:// or rediss-cluster://, got %s", Redact(raw))
	}
	e := endpoint{url: raw, cluster: true, tls: strings.HasPrefix(raw, "rediss-cluster://")}
	rest := raw[strings.Index(raw, "://")+3:]
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		user, secret, hasUser := strings.Cut(rest[:at], ":")
		if hasUser {
			e.username, _ = url.PathUnescape(user)
			e.password, _ = url.PathUnescape(secret)
		} else {
			e.password, _ = url.PathUnescape(user)
		}
		rest = rest[at+1:]
	}
	hosts, _, _ := strings.Cut(rest, "/")
	for _, host := range strings.Split(hosts, ",") {
		host = strings.TrimSpace(host)
		if host == "" {
			continue
		}
		colon := strings.LastIndex(host, ":")
		port, err := strconv.Atoi(host[colon+1:])
		if colon <= 0 || err != nil || port < 1 || port > 65535 {
			return endpoint{}, invalid("redis", "a cluster node must be host:port, got '%s' in %s", host, Redact(raw))
		}
		e.nodes = append(e.nodes, host)
	}
	if len(e.nodes) == 0 {
		return endpoint{}, invalid("redis", "a cluster URL needs at least one host:port: %s", Redact(raw))
	}
	return e, nil
}

func tlsConfig(e endpoint, ca string) (*tls.Config, error) {
	if !e.tls {
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
