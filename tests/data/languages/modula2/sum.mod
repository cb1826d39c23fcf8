MODULE sum;

FROM STextIO IMPORT WriteLn, SkipLine;
FROM SWholeIO IMPORT ReadInt, WriteInt;

VAR
  t, i, a, b: INTEGER;

BEGIN
  ReadInt(t);
  SkipLine;
  FOR i := 1 TO t DO
    ReadInt(a);
    ReadInt(b);
    SkipLine;
    WriteInt(a + b, 0);
    WriteLn
  END
END sum.
