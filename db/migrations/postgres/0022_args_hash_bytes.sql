-- args_hash holds the bytes its hex spells (db/schema/hex-bytes.ts), half the size in every row. A
-- hash of an odd number of digits is stored padded to 32 bytes with its digit count in a 33rd byte,
-- as hexToBytes writes it, so existing rows read back exactly as they were written.
ALTER TABLE "tool_call_spans" ALTER COLUMN "args_hash" SET DATA TYPE bytea USING decode(
	CASE WHEN length("args_hash") % 2 = 0 THEN "args_hash"
	ELSE rpad("args_hash", 64, '0') || lpad(to_hex(length("args_hash")), 2, '0') END, 'hex');
