package io.delayq.script;

import io.lettuce.core.ScriptOutputType;

/** A Lua script as {@link ScriptRunner} runs it: its assembled source, the SHA Redis caches it under, its reply type. */
public interface Script {
    String source();

    String sha();

    ScriptOutputType outputType();
}
