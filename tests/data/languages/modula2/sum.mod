MODULE sum;

FROM STextIO IMPORT WriteChar, WriteLn, SkipLine;
FROM SWholeIO IMPORT ReadInt, WriteCard;

VAR
  t, i, a, b, s: INTEGER;

BEGIN
  ReadInt(t);
  SkipLine;
  FOR i := 1 TO t DO
    ReadInt(a);
    ReadInt(b);
    SkipLine;
    s := a + b;
    (* ISO WriteInt writes a sign before every number: "+3". *)
    IF s < 0 THEN
      WriteChar('-');
      s := -s
    END;
    WriteCard(VAL(CARDINAL, s), 0);
    WriteLn
  END
END sum.
