-- One row per scheduled departure; flight_date is the local departure day.
select
    year,
    month,
    day,
    dep_time,
    sched_dep_time,
    dep_delay,
    arr_time,
    sched_arr_time,
    arr_delay,
    carrier,
    flight,
    tailnum,
    origin,
    dest,
    air_time,
    distance,
    hour,
    minute,
    time_hour,
    make_date(year, month, day) as flight_date
from {{ source('nycflights13', 'flights') }}
