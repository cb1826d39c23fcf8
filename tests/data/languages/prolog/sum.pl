main :-
    read_line_to_string(user_input, Line),
    number_string(T, Line),
    loop(T).

loop(0) :- !.
loop(N) :-
    read_line_to_string(user_input, Line),
    split_string(Line, " ", " ", [A0, B0]),
    number_string(A, A0),
    number_string(B, B0),
    S is A + B,
    write(S), nl,
    N1 is N - 1,
    loop(N1).
