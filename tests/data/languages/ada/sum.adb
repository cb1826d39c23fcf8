with Ada.Text_IO; use Ada.Text_IO;
with Ada.Long_Long_Integer_Text_IO; use Ada.Long_Long_Integer_Text_IO;
procedure Sum is
   T, A, B : Long_Long_Integer;
begin
   Get (T);
   for I in 1 .. T loop
      Get (A);
      Get (B);
      Put (A + B, Width => 0);
      New_Line;
   end loop;
end Sum;
