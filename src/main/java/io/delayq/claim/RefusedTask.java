package io.delayq.claim;

import io.delayq.task.TaskIdText;

import java.util.HexFormat;

/**
 * A task the claim script dead-lettered instead of handing it out (include/malformed.lua): its id is
 * not 1 to 256 bytes of UTF-8, its score is not epoch milliseconds, its record bucket or attempts
 * field has the wrong type, or its record's priority contradicts its due set. The id comes as hex
 * because a reply decoded as UTF-8 could not carry it byte for byte; an id longer than the 128 bytes
 * the script sends back is cut there, {@code idLength} telling its real length.
 */
public record RefusedTask(int shard, String idHex, int idLength, String reason) {

    public byte[] idBytes() {
        return HexFormat.of().parseHex(idHex);
    }

    /** The id for a log line: as text when it is UTF-8, otherwise with every other byte as {@code \xNN}; a cut id ends in "...". */
    public String shownId() {
        byte[] bytes = idBytes();
        String shown = TaskIdText.show(bytes);
        return bytes.length < idLength ? shown + "..." : shown;
    }
}
