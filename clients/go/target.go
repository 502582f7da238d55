package delayq

import (
	"context"
	"crypto/tls"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

// target is where commands go: one Redis server, or a Redis Cluster whose node is chosen by each command's key.
// Every delayq call names its keys (a shard's keys share the hash tag {queue:shard}, the meta and calendar keys the
// tag {queue}), so one key routes the whole call.
type target interface {
	// conn is a connection to the node that serves key; on a Cluster, Do follows MOVED and ASK redirections.
	conn(ctx context.Context, key string) (redis.Conn, error)
	// pipeline is a connection to the node that serves key for Send, Flush and Receive, which follow no
	// redirections: the caller tries again on a redirection error (isRedirection), as nothing ran.
	pipeline(ctx context.Context, key string) (redis.Conn, error)
	// redirected learns the Cluster's slot map again after a redirection met in a pipeline.
	redirected()
	close() error
}

type singleServer struct{ pool *redis.Pool }

func (s singleServer) conn(ctx context.Context, _ string) (redis.Conn, error) {
	return s.pool.GetContext(ctx)
}

func (s singleServer) pipeline(ctx context.Context, key string) (redis.Conn, error) {
	return s.conn(ctx, key)
}
func (singleServer) redirected()    {}
func (s singleServer) close() error { return s.pool.Close() }

func newSingleServer(url string, dialOptions []redis.DialOption) singleServer {
	return singleServer{&redis.Pool{
		MaxIdle:     16,
		IdleTimeout: 5 * time.Minute,
		DialContext: func(context.Context) (redis.Conn, error) {
			return redis.DialURL(url, dialOptions...)
		},
	}}
}

// redirectAttempts bounds how many MOVED/ASK redirections (and TRYAGAIN answers during a slot migration) one
// command follows before its error is returned.
const redirectAttempts = 5

type clusterServers struct{ cluster *redisc.Cluster }

func (c clusterServers) pipeline(_ context.Context, key string) (redis.Conn, error) {
	conn := c.cluster.Get()
	if err := redisc.BindConn(conn, key); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

func (c clusterServers) conn(ctx context.Context, key string) (redis.Conn, error) {
	conn, err := c.pipeline(ctx, key)
	if err != nil {
		return nil, err
	}
	return redisc.RetryConn(conn, redirectAttempts, 20*time.Millisecond)
}

func (c clusterServers) redirected()  { _ = c.cluster.Refresh() }
func (c clusterServers) close() error { return c.cluster.Close() }

// newClusterServers reads the slot map from the first startup node that answers.
func newClusterServers(e endpoint, dialOptions []redis.DialOption, tlsConf *tls.Config) (clusterServers, error) {
	if e.username != "" {
		dialOptions = append(dialOptions, redis.DialUsername(e.username))
	}
	if e.password != "" {
		dialOptions = append(dialOptions, redis.DialPassword(e.password))
	}
	if tlsConf != nil {
		dialOptions = append(dialOptions, redis.DialUseTLS(true))
	}
	cluster := &redisc.Cluster{
		StartupNodes: e.nodes,
		DialOptions:  dialOptions,
		CreatePool: func(address string, options ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{
				MaxIdle:     16,
				IdleTimeout: 5 * time.Minute,
				Dial:        func() (redis.Conn, error) { return redis.Dial("tcp", address, options...) },
			}, nil
		},
	}
	if err := cluster.Refresh(); err != nil {
		cluster.Close()
		return clusterServers{}, err
	}
	return clusterServers{cluster}, nil
}

func isRedirection(err error) bool { return redisc.ParseRedir(err) != nil || redisc.IsTryAgain(err) }
