-module(sum).
-export([main/0]).

main() ->
    {ok, [T]} = io:fread("", "~d"),
    loop(T).

loop(0) -> ok;
loop(N) ->
    {ok, [A, B]} = io:fread("", "~d ~d"),
    io:format("~b~n", [A + B]),
    loop(N - 1).
