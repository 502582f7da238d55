package io.delayq.console.http;

/** One API handler: answers a value that is written as JSON (or throws {@link ApiException}). */
@FunctionalInterface
public interface Route {
    Object handle(Request request) throws Exception;
}
