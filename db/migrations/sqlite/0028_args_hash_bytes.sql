-- args_hash holds the bytes its hex spells (db/schema/hex-bytes.ts), half the size in every row. A
-- hash of an odd number of digits is stored padded to 32 bytes with its digit count in a 33rd byte,
-- as hexToBytes writes it, so existing rows read back exactly as they were written.
-- The column keeps its declared type: a TEXT column stores a blob as it is, and rebuilding the table
-- (what drizzle-kit writes for a type change) would drop the text-search triggers with the old table.
UPDATE `tool_call_spans` SET `args_hash` = unhex(
	CASE WHEN length(`args_hash`) % 2 = 0 THEN `args_hash`
	ELSE substr(`args_hash` || '0000000000000000000000000000000000000000000000000000000000000000', 1, 64) || printf('%02x', length(`args_hash`)) END)
WHERE typeof(`args_hash`) = 'text';
