program sum;
var
  t, i: integer;
  a, b: int64;
begin
  readln(t);
  for i := 1 to t do
  begin
    readln(a, b);
    writeln(a + b);
  end;
end.
