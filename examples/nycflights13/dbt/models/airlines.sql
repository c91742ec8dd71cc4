select * from {{ source('nycflights13', 'airlines') }}
