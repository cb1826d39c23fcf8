\ Each line is Forth text: its numbers land on the stack.
create buf 256 allot
: line ( -- ) buf 256 stdin read-line throw drop buf swap evaluate ;
: main ( -- ) line 0 ?do line + 0 .r cr loop ;
main bye
