package io.delayq.script;

import io.delayq.DelayQueueException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Assembles a Lua script from the classpath: each line {@code --@include name.lua} is replaced by that helper,
 * looked up in the given folders in order, so each script stays self-contained for Redis while helpers are
 * written once.
 */
public final class LuaSource {
    private static final Pattern INCLUDE = Pattern.compile("(?m)^--@include (\\S+)$");

    private final String script;
    private final List<String> includeFolders;
    private volatile String source;
    private volatile String sha;

    /** A script's source, assembled on first use, and its SHA-1 (what EVALSHA names it by). */
    public LuaSource(String script, List<String> includeFolders) {
        this.script = script;
        this.includeFolders = List.copyOf(includeFolders);
    }

    public String source() {
        if (source == null) {
            source = assemble(script, includeFolders);
        }
        return source;
    }

    public String sha() {
        if (sha == null) {
            sha = sha1(source());
        }
        return sha;
    }

    public static String assemble(String script, List<String> includeFolders) {
        Matcher m = INCLUDE.matcher(read(script));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(include(m.group(1), includeFolders, script)));
        }
        m.appendTail(out);
        return out.toString();
    }

    public static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String include(String name, List<String> folders, String script) {
        for (String folder : folders) {
            String text = readIfPresent(folder + name);
            if (text != null) {
                return text;
            }
        }
        throw new DelayQueueException("Lua include " + name + " of " + script + " is in none of " + folders);
    }

    private static String read(String resource) {
        String text = readIfPresent(resource);
        if (text == null) {
            throw new DelayQueueException("Lua script resource missing from the classpath: " + resource);
        }
        return text;
    }

    private static String readIfPresent(String resource) {
        try (InputStream in = LuaSource.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DelayQueueException("cannot read Lua script " + resource, e);
        }
    }
}
