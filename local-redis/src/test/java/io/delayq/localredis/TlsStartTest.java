package io.delayq.localredis;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one rule for starting a redis-server with TLS options (the operator's and the chaos suite's TLS tests use it). */
class TlsStartTest {
    /** Redis 6.2 built without TLS, given --tls-port (what the embedded binary answers). */
    private static final String NO_TLS = "redis-server exited at start: *** FATAL CONFIG FILE ERROR (Redis 6.2.14) ***\n"
            + "Reading the configuration file, at line 2\n>>> 'tls-port \"40123\"'\nBad directive or wrong number of arguments";
    private static final String PORT_TAKEN = "redis-server exited at start: Warning: Could not create server TCP listening socket "
            + "127.0.0.1:40123: bind: Address already in use";

    @Test
    void aServerBuiltWithoutTlsIsNoServerAndNoFailure() {
        assertThat(TlsStart.start(() -> {
            throw new LocalRedisException(NO_TLS);
        })).isEmpty();
        assertThat(TlsStart.builtWithoutTls(NO_TLS)).isTrue();
        assertThat(TlsStart.builtWithoutTls("Bad directive or wrong number of arguments: 'maxmemory-policy'")).isFalse();
    }

    @Test
    void aTakenPortIsRetriedOnAFreshAttemptAFewTimes() {
        AtomicInteger attempts = new AtomicInteger();
        assertThat(TlsStart.start(() -> {
            if (attempts.incrementAndGet() < TlsStart.ATTEMPTS) {
                throw new LocalRedisException(PORT_TAKEN);
            }
            return "started";
        })).contains("started");

        AtomicInteger always = new AtomicInteger();
        assertThatThrownBy(() -> TlsStart.start(() -> {
            always.incrementAndGet();
            throw new LocalRedisException(PORT_TAKEN);
        })).hasMessageContaining("Address already in use");
        assertThat(always).hasValue(TlsStart.ATTEMPTS);
    }

    @Test
    void anyOtherStartFailureIsThrownAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> TlsStart.start(() -> {
            attempts.incrementAndGet();
            throw new LocalRedisException("redis-server exited at start: Failed to load certificate: redis.crt");
        })).isInstanceOf(LocalRedisException.class).hasMessageContaining("Failed to load certificate");
        assertThat(attempts).hasValue(1);
    }
}
