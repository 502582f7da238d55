package io.delayq.handler;

/** What a handler may want to know about the worker that runs it. */
public record HandlerContext(String queue, int shards, int shardFrom, int shardTo) {
}
